import { describe, expect, it } from 'vitest';
import { imageTag } from './defaulters.js';

describe('imageTag (kube parsers.ParseImageName)', () => {
  it('is latest without tag or digest, the tag when there is one, none for a digest alone or a bad reference', () => {
    expect(imageTag('nginx')).toBe('latest');
    expect(imageTag('nginx:latest')).toBe('latest');
    expect(imageTag('nginx:1.27')).toBe('1.27');
    expect(imageTag('localhost:5000/team/app')).toBe('latest');
    expect(imageTag('registry.example.com:5000/team/app:v2')).toBe('v2');
    expect(imageTag('Registry.Example.com/app')).toBe('latest');
    expect(imageTag('nginx@sha256:' + 'a'.repeat(64))).toBe('');
    expect(imageTag('nginx:1.27@sha256:' + 'a'.repeat(64))).toBe('1.27');
    expect(imageTag('')).toBeUndefined();
    expect(imageTag('Nginx')).toBeUndefined();
  });
});
