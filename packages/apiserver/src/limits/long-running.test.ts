import { describe, expect, it } from 'vitest';
import { isLongRunning } from './long-running.js';

const check = (method: string, path: string) => isLongRunning(method, new URL(path, 'http://localhost'));

describe('isLongRunning (kube BasicLongRunningRequestCheck: verbs watch and proxy; attach, exec, proxy, log, portforward)', () => {
  it('knows watches, in both forms', () => {
    expect(check('GET', '/api/v1/pods?watch=true')).toBe(true);
    expect(check('GET', '/api/v1/namespaces/default/pods?watch=1&resourceVersion=5')).toBe(true);
    expect(check('GET', '/api/v1/namespaces/default/pods?watch=True')).toBe(true);
    expect(check('GET', '/api/v1/watch/namespaces/default/pods')).toBe(true);
    expect(check('GET', '/apis/apps/v1/watch/deployments')).toBe(true);
    expect(check('GET', '/api/v1/pods?watch=false')).toBe(false);
    expect(check('GET', '/api/v1/pods?watch=0')).toBe(false);
  });

  it('knows the streaming subresources, log with or without follow as kube does', () => {
    for (const sub of ['exec', 'attach', 'portforward', 'proxy', 'log']) {
      expect(check('GET', `/api/v1/namespaces/default/pods/p/${sub}`), sub).toBe(true);
    }
    expect(check('GET', '/api/v1/namespaces/default/pods/p/log?follow=true')).toBe(true);
  });

  it('leaves everything else to the timeout and the in-flight limits', () => {
    expect(check('GET', '/apis/apps/v1/namespaces/watch/deployments')).toBe(false);
    expect(check('GET', '/api/v1/namespaces/default/pods/p')).toBe(false);
    expect(check('PUT', '/api/v1/namespaces/default/pods/p/status')).toBe(false);
    expect(check('GET', '/readyz')).toBe(false);
    expect(check('GET', '/apis/apps/v1/namespaces/watch/deployments/x/unknown/more/parts')).toBe(false);
  });
});
