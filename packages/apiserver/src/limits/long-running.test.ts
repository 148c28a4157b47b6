import { describe, expect, it } from 'vitest';
import { isLongRunning } from './long-running.js';

// kube's BasicLongRunningRequestCheck: the verbs watch and proxy; the subresources attach, exec, proxy, log and
// portforward. [method, path, long-running?]
const CASES: [string, string, boolean][] = [
  // Watches, in both forms, with the boolean spelled as clients spell it.
  ['GET', '/api/v1/pods?watch=true', true],
  ['GET', '/api/v1/namespaces/default/pods?watch=1&resourceVersion=5', true],
  ['GET', '/api/v1/namespaces/default/pods?watch=True', true],
  ['GET', '/api/v1/watch/namespaces/default/pods', true],
  ['GET', '/apis/apps/v1/watch/deployments', true],
  ['GET', '/api/v1/pods?watch=false', false],
  ['GET', '/api/v1/pods?watch=0', false],
  // Streaming subresources, log with or without follow as kube does.
  ['GET', '/api/v1/namespaces/default/pods/p/exec', true],
  ['GET', '/api/v1/namespaces/default/pods/p/attach', true],
  ['GET', '/api/v1/namespaces/default/pods/p/portforward', true],
  ['GET', '/api/v1/namespaces/default/pods/p/proxy', true],
  ['GET', '/api/v1/namespaces/default/pods/p/log', true],
  ['GET', '/api/v1/namespaces/default/pods/p/log?follow=true', true],
  // Everything else is left to the request timeout and the in-flight limits.
  ['GET', '/apis/apps/v1/namespaces/watch/deployments', false],
  ['GET', '/api/v1/namespaces/default/pods/p', false],
  ['PUT', '/api/v1/namespaces/default/pods/p/status', false],
  ['GET', '/readyz', false],
];

describe('isLongRunning', () => {
  it.each(CASES)('%s %s → %s', (method, path, expected) => {
    expect(isLongRunning(method, new URL(path, 'http://localhost'))).toBe(expected);
  });
});
