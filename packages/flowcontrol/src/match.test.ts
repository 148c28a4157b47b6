import type { AuthorizationAttributes, UserInfo } from '@kapi/apiserver';
import { describe, expect, it } from 'vitest';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';
import { buildConfig, classify } from './config.js';

const config = buildConfig(
  [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS],
  [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS],
  600,
);

const user = (username: string, ...groups: string[]): UserInfo => ({ username, groups: [...groups, username === 'system:anonymous' ? 'system:unauthenticated' : 'system:authenticated'] });

function resource(u: UserInfo, verb: string, apiGroup: string, resource: string, namespace = '', subresource = ''): AuthorizationAttributes {
  return { user: u, verb, resourceRequest: true, path: '', apiGroup, apiVersion: 'v1', resource, subresource, namespace, name: '' };
}
function nonResource(u: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return { user: u, verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}
const schemaOf = (a: AuthorizationAttributes) => classify(config, a).name;

describe('classification by the bootstrap FlowSchemas (kube 1.33)', () => {
  it('sends system:masters to exempt and health probes of anyone to probes', () => {
    expect(schemaOf(resource(user('admin', 'system:masters'), 'delete', '', 'secrets', 'default'))).toBe('exempt');
    expect(schemaOf(nonResource(user('system:anonymous'), 'get', '/readyz'))).toBe('probes');
    // A prefix rule without `*` still covers the paths below it, as kube's does.
    expect(schemaOf(nonResource(user('system:anonymous'), 'get', '/livez/ping'))).toBe('probes');
    // Only GET is a probe.
    expect(schemaOf(nonResource(user('alice'), 'post', '/healthz'))).toBe('global-default');
    expect(classify(config, nonResource(user('system:anonymous'), 'get', '/healthz')).level.exempt).toBe(true);
  });

  it('tells nodes, controllers and service accounts apart', () => {
    const node = user('system:node:n1', 'system:nodes');
    expect(schemaOf(resource(node, 'update', '', 'nodes', '', 'status'))).toBe('system-node-high');
    expect(schemaOf(resource(node, 'update', 'coordination.k8s.io', 'leases', 'kube-node-lease'))).toBe('system-node-high');
    expect(schemaOf(resource(node, 'list', '', 'pods', 'default'))).toBe('system-nodes');
    const kcm = user('system:kube-controller-manager');
    expect(schemaOf(resource(kcm, 'update', 'coordination.k8s.io', 'leases', 'kube-system'))).toBe('system-leader-election');
    expect(schemaOf(resource(kcm, 'update', '', 'endpoints', 'default'))).toBe('endpoint-controller');
    expect(schemaOf(resource(kcm, 'list', 'apps', 'deployments'))).toBe('kube-controller-manager');
    const systemSa = user('system:serviceaccount:kube-system:coredns', 'system:serviceaccounts', 'system:serviceaccounts:kube-system');
    expect(schemaOf(resource(systemSa, 'get', '', 'configmaps', 'kube-system'))).toBe('workload-leader-election');
    expect(schemaOf(resource(systemSa, 'list', '', 'services'))).toBe('kube-system-service-accounts');
    // A namespace that merely starts like kube-system is not it.
    const lookalike = user('system:serviceaccount:kube-systemx:a', 'system:serviceaccounts');
    expect(schemaOf(resource(lookalike, 'list', '', 'services'))).toBe('service-accounts');
    expect(schemaOf(resource(user('alice'), 'list', '', 'configmaps', 'default'))).toBe('global-default');
    expect(schemaOf(nonResource(user('system:anonymous'), 'get', '/api'))).toBe('global-default');
  });

  it('matches a rule that is not cluster scoped only inside namespaces', () => {
    // system-node-high's lease rule is namespaced: a cluster-wide list of leases falls to system-nodes.
    const node = user('system:node:n1', 'system:nodes');
    expect(schemaOf(resource(node, 'list', 'coordination.k8s.io', 'leases'))).toBe('system-nodes');
  });

  it('gives each limited level its share of the server concurrency', () => {
    // 600 seats over 245 shares: ceil(600 × shares / 245).
    expect(config.levels.get('workload-low')!.nominalLimit).toBe(245);
    expect(config.levels.get('global-default')!.nominalLimit).toBe(49);
    expect(config.levels.get('catch-all')!.nominalLimit).toBe(13);
    expect(config.levels.get('exempt')!.exempt).toBe(true);
    // Max seats: max(1, min(ceil(15% of the limit), limit / handSize, 10)).
    expect(config.levels.get('workload-low')!.maxSeats).toBe(10);
    expect(config.levels.get('global-default')!.maxSeats).toBe(8);
    expect(config.levels.get('leader-election')!.maxSeats).toBe(4);
  });

  it('orders by matchingPrecedence, then name, and skips schemas whose level is missing', () => {
    const mine = structuredClone(SUGGESTED_FLOW_SCHEMAS.find((s) => s.metadata!.name === 'global-default')!);
    mine.metadata!.name = 'aaa-mine';
    mine.spec!.priorityLevelConfiguration.name = 'workload-low';
    const dangling = structuredClone(mine);
    dangling.metadata!.name = 'aaa-dangling';
    dangling.spec!.priorityLevelConfiguration.name = 'nowhere';
    const both = buildConfig(
      [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS, mine, dangling],
      [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS],
      600,
    );
    expect(classify(both, resource(user('alice'), 'get', '', 'pods', 'a')).name).toBe('aaa-mine');
  });
});
