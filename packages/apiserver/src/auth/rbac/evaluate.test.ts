import { describe, expect, it } from 'vitest';
import type { AuthorizationAttributes } from '../types.js';
import { appliesTo, firstApplyingSubject, nonResourceURLMatches, resourceMatches, ruleAllows } from './evaluate.js';
import type { PolicyRule } from './types.js';

const user = { username: 'alice', groups: ['devs', 'system:authenticated'] };

const resource = (verb: string, res: string, opts: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user,
  verb,
  resourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: res,
  subresource: '',
  namespace: 'dev',
  name: '',
  ...opts,
});

const nonResource = (verb: string, path: string): AuthorizationAttributes => ({
  ...resource(verb, ''),
  resourceRequest: false,
  path,
  namespace: '',
});

describe('ruleAllows: resource requests', () => {
  it('matches verbs, including *', () => {
    const rule: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
    expect(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'].filter((v) => ruleAllows(resource(v, 'pods'), rule))).toEqual(['get', 'list']);
    expect(ruleAllows(resource('escalate', 'pods'), { ...rule, verbs: ['*'] })).toBe(true);
    expect(ruleAllows(resource('get', 'pods'), { ...rule, verbs: [] })).toBe(false);
  });

  it('matches API groups exactly or by *; no apiGroups matches nothing', () => {
    const rule: PolicyRule = { verbs: ['patch'], apiGroups: ['apps'], resources: ['deployments'] };
    expect(ruleAllows(resource('patch', 'deployments', { apiGroup: 'apps' }), rule)).toBe(true);
    expect(ruleAllows(resource('patch', 'deployments', { apiGroup: 'extensions' }), rule)).toBe(false);
    expect(ruleAllows(resource('patch', 'deployments', { apiGroup: '' }), rule)).toBe(false);
    expect(ruleAllows(resource('patch', 'deployments', { apiGroup: 'extensions' }), { ...rule, apiGroups: ['*'] })).toBe(true);
    expect(ruleAllows(resource('patch', 'deployments', { apiGroup: 'apps' }), { verbs: ['patch'], resources: ['deployments'] })).toBe(false);
  });

  it('matches resources and subresources as kube does', () => {
    const cases: [string[], string, string, boolean][] = [
      [['pods'], 'pods', '', true],
      [['pods'], 'pods', 'status', false],
      [['pods/status'], 'pods', 'status', true],
      [['pods/status'], 'pods', '', false],
      [['pods/status'], 'pods', 'eviction', false],
      [['*'], 'pods', 'eviction', true],
      [['*/status'], 'pods', 'status', true],
      [['*/status'], 'deployments', 'status', true],
      [['*/status'], 'pods', '', false],
      [['*/status'], 'pods', 'eviction', false],
      // Not a wildcard upstream: "pods/*" names a subresource called "*".
      [['pods/*'], 'pods', 'status', false],
      [['pods/*'], 'pods', '*', true],
      [['pods/eviction'], 'pods', 'eviction', true],
    ];
    for (const [resources, res, sub, want] of cases) {
      expect({ resources, res, sub, got: resourceMatches({ verbs: ['*'], resources }, sub ? `${res}/${sub}` : res, sub) }).toEqual({
        resources, res, sub, got: want,
      });
    }
  });

  it('matches resourceNames only for requests naming one of them', () => {
    const rule: PolicyRule = { verbs: ['*'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'] };
    const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
    expect(verbs.filter((v) => ruleAllows(resource(v, 'configmaps', { name: 'app-config' }), rule))).toEqual(verbs);
    expect(verbs.filter((v) => ruleAllows(resource(v, 'configmaps', { name: 'other' }), rule))).toEqual([]);
    expect(verbs.filter((v) => ruleAllows(resource(v, 'configmaps'), rule))).toEqual([]);
    expect(ruleAllows(resource('get', 'configmaps', { name: 'x' }), { ...rule, resourceNames: [] })).toBe(true);
  });

  it('never lets a non-resource rule grant a resource request', () => {
    expect(ruleAllows(resource('get', 'pods'), { verbs: ['*'], nonResourceURLs: ['*'] })).toBe(false);
  });
});

describe('ruleAllows: non-resource requests', () => {
  it('matches URLs exactly, by *, or by a trailing-* prefix', () => {
    const rule: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*', '/logs*', '/version/'] };
    const paths = ['/healthz', '/healthz/etcd', '/api', '/api/', '/api/v1', '/apis', '/logs', '/logsx/a', '/version', '/version/'];
    expect(paths.filter((p) => ruleAllows(nonResource('get', p), rule))).toEqual(['/healthz', '/api/', '/api/v1', '/logs', '/logsx/a', '/version/']);
    expect(ruleAllows(nonResource('post', '/healthz'), rule)).toBe(false);
    expect(nonResourceURLMatches({ verbs: ['get'], nonResourceURLs: ['*'] }, '/anything/at/all')).toBe(true);
  });

  it('never lets a resource rule grant a non-resource request', () => {
    expect(ruleAllows(nonResource('get', '/api'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] })).toBe(false);
  });
});

describe('appliesTo', () => {
  const sa = { username: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] };

  it('matches User by name and Group by membership', () => {
    expect(appliesTo({ kind: 'User', name: 'alice' }, user, '')).toBe(true);
    expect(appliesTo({ kind: 'User', name: 'Alice' }, user, '')).toBe(false);
    expect(appliesTo({ kind: 'Group', name: 'devs' }, user, '')).toBe(true);
    expect(appliesTo({ kind: 'Group', name: 'alice' }, user, '')).toBe(false);
    expect(appliesTo({ kind: 'Robot', name: 'alice' }, user, '')).toBe(false);
  });

  it('matches ServiceAccount by namespace and name, defaulting to the binding namespace', () => {
    expect(appliesTo({ kind: 'ServiceAccount', name: 'deployer', namespace: 'ci' }, sa, '')).toBe(true);
    expect(appliesTo({ kind: 'ServiceAccount', name: 'deployer', namespace: 'ci' }, sa, 'other')).toBe(true);
    expect(appliesTo({ kind: 'ServiceAccount', name: 'deployer' }, sa, 'ci')).toBe(true);
    expect(appliesTo({ kind: 'ServiceAccount', name: 'deployer' }, sa, 'prod')).toBe(false);
    expect(appliesTo({ kind: 'ServiceAccount', name: 'deployer' }, sa, '')).toBe(false);
    expect(appliesTo({ kind: 'ServiceAccount', name: 'deploy', namespace: 'ci' }, sa, '')).toBe(false);
    // A user merely named like a service account is one, as in kube: the username is the identity.
    expect(appliesTo({ kind: 'User', name: 'system:serviceaccount:ci:deployer' }, sa, '')).toBe(true);
  });

  it('reports the first subject that applies', () => {
    expect(firstApplyingSubject([{ kind: 'User', name: 'bob' }, { kind: 'Group', name: 'devs' }, { kind: 'User', name: 'alice' }], user, '')).toBe(1);
    expect(firstApplyingSubject(undefined, user, '')).toBe(-1);
  });
});
