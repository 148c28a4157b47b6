import { describe, expect, it } from 'vitest';
import { forbiddenError, forbiddenMessage } from './forbidden.js';
import type { AuthorizationAttributes } from './types.js';

const base: AuthorizationAttributes = {
  user: { username: 'jane', groups: ['dev'] },
  verb: 'list',
  resourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'default',
  name: '',
};

describe('forbidden messages, word for word as kube-apiserver', () => {
  it('namespaced, cluster-scoped, grouped, named and subresource requests', () => {
    expect(forbiddenError(base).status.message).toBe('pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"');
    expect(forbiddenError({ ...base, namespace: '', resource: 'nodes' }).status.message).toBe(
      'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect(forbiddenError({ ...base, verb: 'get', apiGroup: 'apps', resource: 'deployments', name: 'web' }).status.message).toBe(
      'deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "default"',
    );
    expect(forbiddenError({ ...base, verb: 'update', name: 'p', subresource: 'status' }).status.message).toBe(
      'pods "p" is forbidden: User "jane" cannot update resource "pods/status" in API group "" in the namespace "default"',
    );
  });

  it('non-resource requests', () => {
    const attrs = { ...base, resourceRequest: false, verb: 'get', path: '/foo', apiVersion: '', resource: '', namespace: '' };
    expect(forbiddenMessage(attrs)).toBe('User "jane" cannot get path "/foo"');
    expect(forbiddenError(attrs).status.message).toBe('forbidden: User "jane" cannot get path "/foo"');
  });

  it('appends the reason, and is a 403 Forbidden Status with details', () => {
    const err = forbiddenError({ ...base, namespace: '', resource: 'nodes' }, 'Everything is forbidden.');
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope: Everything is forbidden.',
      reason: 'Forbidden',
      details: { kind: 'nodes' },
      code: 403,
    });
  });

  it('quotes like Go and escapes HTML', () => {
    expect(forbiddenError({ ...base, user: { username: 'a"<b>', groups: [] } }).status.message).toBe(
      'pods is forbidden: User "a\\"&lt;b&gt;" cannot list resource "pods" in API group "" in the namespace "default"',
    );
  });
});
