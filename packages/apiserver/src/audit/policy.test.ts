import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../admission/types.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import { evaluatePolicy, type AuditPolicy } from './policy.js';

const jane: UserInfo = { username: 'jane', groups: ['dev', 'system:authenticated'] };
const info = (over: Partial<RequestInfo>): RequestInfo => ({ verb: 'get', group: '', version: 'v1', namespace: 'default', resource: 'pods', subresource: '', name: 'p', ...over });
const level = (policy: AuditPolicy, user: UserInfo, verb: string, path: string, req?: RequestInfo) => evaluatePolicy(policy, user, verb, path, req).level;

describe('evaluatePolicy (kube’s rule matching)', () => {
  it('takes the first matching rule; users, groups and verbs narrow it; no match is None', () => {
    const policy: AuditPolicy = { rules: [
      { level: 'None', users: ['system:kube-proxy'] },
      { level: 'RequestResponse', userGroups: ['dev'], verbs: ['delete'] },
      { level: 'Request', verbs: ['get'] },
    ] };
    expect(level(policy, { username: 'system:kube-proxy', groups: [] }, 'get', '/', info({}))).toBe('None');
    expect(level(policy, jane, 'delete', '/', info({ verb: 'delete' }))).toBe('RequestResponse');
    expect(level(policy, { username: 'bob', groups: ['ops'] }, 'delete', '/', info({ verb: 'delete' }))).toBe('None');
    expect(level(policy, jane, 'get', '/', info({}))).toBe('Request');
  });

  it('matches resources by group, "*", "<resource>/*", "*/<subresource>", resourceNames and namespaces', () => {
    const rule = (spec: object) => ({ rules: [{ level: 'Metadata' as const, ...spec }] });
    const pods = rule({ resources: [{ group: '', resources: ['pods'] }] });
    expect(level(pods, jane, 'get', '', info({}))).toBe('Metadata');
    expect(level(pods, jane, 'get', '', info({ subresource: 'log' }))).toBe('None'); // pods/log is not pods
    expect(level(pods, jane, 'get', '', info({ group: 'apps', resource: 'pods' }))).toBe('None');
    expect(level(rule({ resources: [{ group: '', resources: ['pods/*'] }] }), jane, 'get', '', info({ subresource: 'log' }))).toBe('Metadata');
    expect(level(rule({ resources: [{ group: '', resources: ['*/status'] }] }), jane, 'get', '', info({ resource: 'nodes', subresource: 'status' }))).toBe('Metadata');
    expect(level(rule({ resources: [{ group: '', resources: ['*/status'] }] }), jane, 'get', '', info({ resource: 'nodes' }))).toBe('None');
    expect(level(rule({ resources: [{ group: 'apps' }] }), jane, 'get', '', info({ group: 'apps', resource: 'deployments' }))).toBe('Metadata');
    const named = rule({ resources: [{ group: '', resources: ['secrets'], resourceNames: ['a'] }] });
    expect(level(named, jane, 'get', '', info({ resource: 'secrets', name: 'a' }))).toBe('Metadata');
    expect(level(named, jane, 'get', '', info({ resource: 'secrets', name: 'b' }))).toBe('None');
    expect(level(named, jane, 'list', '', info({ verb: 'list', resource: 'secrets', name: '' }))).toBe('None');
    const inKubeSystem = rule({ namespaces: ['kube-system', ''] });
    expect(level(inKubeSystem, jane, 'get', '', info({ namespace: 'kube-system' }))).toBe('Metadata');
    expect(level(inKubeSystem, jane, 'get', '', info({ namespace: '', resource: 'nodes' }))).toBe('Metadata');
    expect(level(inKubeSystem, jane, 'get', '', info({}))).toBe('None');
    // A resource rule never matches a non-resource request, nor the other way round.
    expect(level(pods, jane, 'get', '/healthz', undefined)).toBe('None');
    expect(level(rule({ nonResourceURLs: ['/healthz*'] }), jane, 'get', '/healthz/ready', undefined)).toBe('Metadata');
    expect(level(rule({ nonResourceURLs: ['/healthz'] }), jane, 'get', '/healthz/ready', undefined)).toBe('None');
    expect(level(rule({ nonResourceURLs: ['/*'] }), jane, 'get', '/api/v1/pods', info({}))).toBe('None');
  });

  it('omits the policy’s stages and the rule’s; the rule’s omitManagedFields wins over the policy’s', () => {
    const decision = evaluatePolicy(
      { omitStages: ['RequestReceived'], omitManagedFields: true, rules: [{ level: 'Request', omitStages: ['ResponseStarted'], omitManagedFields: false }] },
      jane, 'get', '', info({}),
    );
    expect(decision).toEqual({ level: 'Request', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: false });
  });
});
