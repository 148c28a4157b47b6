import { describe, expect, it } from 'vitest';
import {
  apiVersionAndKind,
  formatGroupKind,
  formatGroupResource,
  formatGroupVersion,
  formatGroupVersionKind,
  formatGroupVersionResource,
  gvkFromObject,
  parseGroupVersion,
} from './group-version.js';

describe('group versions', () => {
  it('parses and formats apiVersion strings like kube', () => {
    expect(parseGroupVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(parseGroupVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseGroupVersion('')).toEqual({ group: '', version: '' });
    expect(parseGroupVersion('/')).toEqual({ group: '', version: '' });
    expect(() => parseGroupVersion('a/b/c')).toThrow('unexpected GroupVersion string: a/b/c');
    expect(formatGroupVersion({ group: 'apps', version: 'v1' })).toBe('apps/v1');
    expect(formatGroupVersion({ group: '', version: 'v1' })).toBe('v1');
  });

  it('formats resources and kinds like their Go String methods', () => {
    expect(formatGroupResource({ group: '', resource: 'pods' })).toBe('pods');
    expect(formatGroupResource({ group: 'apps', resource: 'deployments' })).toBe('deployments.apps');
    expect(formatGroupKind({ group: 'apps', kind: 'Deployment' })).toBe('Deployment.apps');
    expect(formatGroupVersionKind({ group: '', version: 'v1', kind: 'Pod' })).toBe('/v1, Kind=Pod');
    expect(formatGroupVersionResource({ group: '', version: 'v1', resource: 'pods' })).toBe('/v1, Resource=pods');
  });

  it('reads the kind of an object', () => {
    expect(gvkFromObject({ apiVersion: 'apps/v1', kind: 'Deployment' })).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(gvkFromObject({ apiVersion: 'v1', kind: 'Pod' })).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(gvkFromObject({ apiVersion: 'a/b/c', kind: 'X' })).toEqual({ group: '', version: '', kind: 'X' });
    expect(gvkFromObject(null)).toEqual({ group: '', version: '', kind: '' });
    expect(apiVersionAndKind({ group: 'apps', version: 'v1', kind: 'Deployment' })).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment' });
  });
});
