import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../admission/types.js';
import type { AuthorizationAttributes } from '../types.js';
import { createRbacAuthorizer } from './authorizer.js';
import { createMemoryRbacSource, type RbacPolicy } from './memory-source.js';
import type { ClusterRole, PolicyRule, RbacSource, Role, RoleBinding, Subject } from './types.js';

const G = 'rbac.authorization.k8s.io';
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { name, namespace }, rules });
const binding = (name: string, namespace: string | undefined, ref: [string, string], subjects: Subject[]): RoleBinding => ({
  metadata: namespace ? { name, namespace } : { name },
  roleRef: { apiGroup: G, kind: ref[0], name: ref[1] },
  subjects,
});
const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: G, name });

const u = (username: string, ...groups: string[]): UserInfo => ({ username, groups: [...groups, 'system:authenticated'] });
const alice = u('alice');
const bob = u('bob');
const carol = u('carol');
const dave = u('dave', 'ops');
const erin = u('erin');
const builder = u('system:serviceaccount:dev:builder', 'system:serviceaccounts', 'system:serviceaccounts:dev');
const deployer = u('system:serviceaccount:ci:deployer', 'system:serviceaccounts', 'system:serviceaccounts:ci');
const mallory = u('mallory');

const resource = (user: UserInfo, verb: string, res: string, o: { ns?: string; group?: string; sub?: string; name?: string } = {}): AuthorizationAttributes => ({
  user,
  verb,
  resourceRequest: true,
  path: '',
  apiGroup: o.group ?? '',
  apiVersion: 'v1',
  resource: res,
  subresource: o.sub ?? '',
  namespace: o.ns ?? '',
  name: o.name ?? '',
});
const nonResource = (user: UserInfo, verb: string, path: string): AuthorizationAttributes => ({
  user, verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
});

function policy(): RbacPolicy {
  return {
    clusterRoles: [
      clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }]),
      clusterRole('pod-status', [{ verbs: ['update', 'patch'], apiGroups: [''], resources: ['pods/status'] }]),
      clusterRole('evictor', [{ verbs: ['create'], apiGroups: [''], resources: ['pods/eviction'] }]),
      clusterRole('status-reader', [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] }]),
      clusterRole('deploy-patcher', [{ verbs: ['get', 'patch'], apiGroups: ['apps'], resources: ['deployments'] }]),
      clusterRole('named-config', [{ verbs: ['get', 'update', 'list', 'create', 'delete'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'] }]),
      clusterRole('metrics', [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }]),
      clusterRole('node-admin', [{ verbs: ['*'], apiGroups: [''], resources: ['nodes'] }]),
    ],
    clusterRoleBindings: [
      binding('carol-pods', undefined, ['ClusterRole', 'pod-reader'], [userSubject('carol')]),
      binding('ops-nodes', undefined, ['ClusterRole', 'node-admin'], [{ kind: 'Group', apiGroup: G, name: 'ops' }]),
      binding('ops-metrics', undefined, ['ClusterRole', 'metrics'], [{ kind: 'Group', apiGroup: G, name: 'ops' }]),
      binding('ci-deployer', undefined, ['ClusterRole', 'deploy-patcher'], [{ kind: 'ServiceAccount', name: 'deployer', namespace: 'ci' }]),
      // A ServiceAccount subject without a namespace names nobody in a ClusterRoleBinding.
      binding('nobody', undefined, ['ClusterRole', 'node-admin'], [{ kind: 'ServiceAccount', name: 'deployer' }]),
    ],
    roles: [
      role('dev', 'configmap-editor', [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }]),
      role('prod', 'configmap-editor', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]),
    ],
    roleBindings: [
      binding('alice-cm', 'dev', ['Role', 'configmap-editor'], [userSubject('alice')]),
      binding('bob-pods', 'dev', ['ClusterRole', 'pod-reader'], [userSubject('bob')]),
      binding('bob-status', 'dev', ['ClusterRole', 'pod-status'], [userSubject('bob')]),
      binding('bob-evict', 'dev', ['ClusterRole', 'evictor'], [userSubject('bob')]),
      binding('erin-status', 'dev', ['ClusterRole', 'status-reader'], [userSubject('erin')]),
      binding('erin-named', 'dev', ['ClusterRole', 'named-config'], [userSubject('erin')]),
      binding('erin-metrics', 'dev', ['ClusterRole', 'metrics'], [userSubject('erin')]),
      binding('builder-cm', 'dev', ['Role', 'configmap-editor'], [{ kind: 'ServiceAccount', name: 'builder' }]),
      binding('builder-deploy', 'dev', ['ClusterRole', 'deploy-patcher'], [{ kind: 'ServiceAccount', name: 'builder', namespace: 'dev' }]),
    ],
  };
}

async function allowedVerbs(source: RbacSource, user: UserInfo, res: string, o: { ns?: string; group?: string; sub?: string; name?: string } = {}) {
  const authz = createRbacAuthorizer(source);
  const out: string[] = [];
  for (const verb of VERBS) if ((await authz.authorize(resource(user, verb, res, o))).decision === 'allow') out.push(verb);
  return out.join(' ');
}

describe('createRbacAuthorizer: the matrix', () => {
  const source = createMemoryRbacSource(policy());
  const READ = 'get list watch';

  it('grants every verb of each user exactly as their bindings say', async () => {
    const rows: [string, UserInfo, string, { ns?: string; group?: string; sub?: string; name?: string }, string][] = [
      // Role in one namespace: nothing in another namespace or cluster-wide.
      ['alice configmaps dev', alice, 'configmaps', { ns: 'dev' }, VERBS.join(' ')],
      ['alice configmaps prod', alice, 'configmaps', { ns: 'prod' }, ''],
      ['alice configmaps all namespaces', alice, 'configmaps', {}, ''],
      ['alice pods dev', alice, 'pods', { ns: 'dev' }, ''],
      // A ClusterRole through a RoleBinding: only in the binding's namespace.
      ['bob pods dev', bob, 'pods', { ns: 'dev' }, READ],
      ['bob pods prod', bob, 'pods', { ns: 'prod' }, ''],
      ['bob pods all namespaces', bob, 'pods', {}, ''],
      // A ClusterRole through a ClusterRoleBinding: every namespace and cluster-wide.
      ['carol pods dev', carol, 'pods', { ns: 'dev' }, READ],
      ['carol pods prod', carol, 'pods', { ns: 'prod' }, READ],
      ['carol pods all namespaces', carol, 'pods', {}, READ],
      ['carol configmaps dev', carol, 'configmaps', { ns: 'dev' }, ''],
      // Group subjects, cluster-scoped resources.
      ['dave nodes', dave, 'nodes', {}, VERBS.join(' ')],
      ['dave nodes/status', dave, 'nodes', { sub: 'status' }, ''],
      ['dave pods dev', dave, 'pods', { ns: 'dev' }, ''],
      ['carol nodes', carol, 'nodes', {}, ''],
      // Subresources are separate from their resource.
      ['bob pods/status dev', bob, 'pods', { ns: 'dev', sub: 'status' }, 'update patch'],
      ['bob pods/eviction dev', bob, 'pods', { ns: 'dev', sub: 'eviction' }, 'create'],
      ['bob pods/log dev', bob, 'pods', { ns: 'dev', sub: 'log' }, ''],
      ['carol pods/status dev', carol, 'pods', { ns: 'dev', sub: 'status' }, ''],
      ['erin pods/status dev', erin, 'pods', { ns: 'dev', sub: 'status' }, 'get'],
      ['erin deployments/status dev', erin, 'deployments', { ns: 'dev', group: 'apps', sub: 'status' }, 'get'],
      ['erin pods dev', erin, 'pods', { ns: 'dev' }, ''],
      ['erin pods/eviction dev', erin, 'pods', { ns: 'dev', sub: 'eviction' }, ''],
      // API groups.
      ['deployer deployments ci', deployer, 'deployments', { ns: 'ci', group: 'apps' }, 'get patch'],
      ['deployer deployments core group', deployer, 'deployments', { ns: 'ci', group: '' }, ''],
      ['deployer deployments extensions', deployer, 'deployments', { ns: 'ci', group: 'extensions' }, ''],
      ['deployer deployments/scale', deployer, 'deployments', { ns: 'ci', group: 'apps', sub: 'scale' }, ''],
      // resourceNames: only requests naming the object (a list names one when its fieldSelector is metadata.name=).
      ['erin configmaps app-config', erin, 'configmaps', { ns: 'dev', name: 'app-config' }, 'get list create update delete'],
      ['erin configmaps other', erin, 'configmaps', { ns: 'dev', name: 'other' }, ''],
      ['erin configmaps unnamed', erin, 'configmaps', { ns: 'dev' }, ''],
      // ServiceAccount subjects, namespace defaulted from the RoleBinding or given.
      ['builder configmaps dev', builder, 'configmaps', { ns: 'dev' }, VERBS.join(' ')],
      ['builder deployments dev', builder, 'deployments', { ns: 'dev', group: 'apps' }, 'get patch'],
      ['builder configmaps prod', builder, 'configmaps', { ns: 'prod' }, ''],
      ['deployer nodes', deployer, 'nodes', {}, ''],
      // Nobody bound.
      ['mallory pods dev', mallory, 'pods', { ns: 'dev' }, ''],
    ];
    const got = [];
    for (const [label, user, res, o] of rows) got.push([label, await allowedVerbs(source, user, res, o)]);
    expect(got).toEqual(rows.map(([label, , , , want]) => [label, want]));
  });

  it('grants non-resource URLs only through ClusterRoleBindings', async () => {
    const authz = createRbacAuthorizer(source);
    const check = async (user: UserInfo, verb: string, path: string) => (await authz.authorize(nonResource(user, verb, path))).decision;
    expect(await check(dave, 'get', '/metrics')).toBe('allow');
    expect(await check(dave, 'get', '/logs/kube-apiserver.log')).toBe('allow');
    expect(await check(dave, 'get', '/logs')).toBe('no-opinion');
    expect(await check(dave, 'post', '/metrics')).toBe('no-opinion');
    expect(await check(dave, 'get', '/metricsz')).toBe('no-opinion');
    // erin's metrics role is bound by a RoleBinding: non-resource requests have no namespace.
    expect(await check(erin, 'get', '/metrics')).toBe('no-opinion');
  });

  it('says which binding allowed, and has no opinion otherwise', async () => {
    const authz = createRbacAuthorizer(source);
    expect(await authz.authorize(resource(alice, 'delete', 'configmaps', { ns: 'dev', name: 'x' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "alice-cm/dev" of Role "configmap-editor" to User "alice"',
    });
    expect(await authz.authorize(resource(carol, 'list', 'pods'))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "carol-pods" of ClusterRole "pod-reader" to User "carol"',
    });
    expect(await authz.authorize(resource(dave, 'delete', 'nodes', { name: 'n1' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "ops-nodes" of ClusterRole "node-admin" to Group "ops"',
    });
    expect(await authz.authorize(resource(builder, 'get', 'configmaps', { ns: 'dev' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "builder-cm/dev" of Role "configmap-editor" to ServiceAccount "builder/dev"',
    });
    expect(await authz.authorize(resource(deployer, 'patch', 'deployments', { ns: 'ci', group: 'apps', name: 'web' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "ci-deployer" of ClusterRole "deploy-patcher" to ServiceAccount "deployer/ci"',
    });
    expect(await authz.authorize(resource(mallory, 'get', 'pods', { ns: 'dev' }))).toEqual({ decision: 'no-opinion' });
  });

  it('reports unresolvable role references as the reason, and still allows through other bindings', async () => {
    const p = policy();
    p.roleBindings!.push(
      binding('ghost-role', 'dev', ['Role', 'ghost'], [userSubject('mallory')]),
      binding('ghost-cluster-role', 'dev', ['ClusterRole', 'ghost'], [userSubject('mallory')]),
      binding('ghost-again', 'dev', ['Role', 'ghost'], [userSubject('mallory')]),
      binding('odd', 'dev', ['Policy', 'x'], [userSubject('mallory')]),
    );
    p.clusterRoleBindings!.push(binding('cluster-ghost', undefined, ['Role', 'ghost'], [userSubject('mallory')]));
    const authz = createRbacAuthorizer(createMemoryRbacSource(p));
    expect(await authz.authorize(resource(mallory, 'get', 'pods', { ns: 'dev' }))).toEqual({
      decision: 'no-opinion',
      reason:
        'RBAC: [role.rbac.authorization.k8s.io "ghost" not found, clusterrole.rbac.authorization.k8s.io "ghost" not found, unsupported role reference kind: "Policy"]',
    });
    expect(await authz.authorize(resource(mallory, 'get', 'pods'))).toEqual({
      decision: 'no-opinion',
      reason: 'RBAC: role.rbac.authorization.k8s.io "ghost" not found',
    });
    p.roleBindings!.push(binding('mallory-pods', 'dev', ['ClusterRole', 'pod-reader'], [userSubject('mallory')]));
    expect((await authz.authorize(resource(mallory, 'get', 'pods', { ns: 'dev' }))).decision).toBe('allow');
  });

  it('reports a failing source as the reason', async () => {
    const failing: RbacSource = { ...source, listClusterRoleBindings: () => Promise.reject(new Error('storage is down')) };
    expect(await createRbacAuthorizer(failing).authorize(resource(bob, 'get', 'pods', { ns: 'dev' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "bob-pods/dev" of ClusterRole "pod-reader" to User "bob"',
    });
    expect(await createRbacAuthorizer(failing).authorize(resource(bob, 'get', 'pods'))).toEqual({
      decision: 'no-opinion',
      reason: 'RBAC: storage is down',
    });
  });

  it('reads the policy on every call: changes apply at once', async () => {
    const p = policy();
    const authz = createRbacAuthorizer(createMemoryRbacSource(p));
    const req = resource(mallory, 'list', 'secrets', { ns: 'prod' });
    expect((await authz.authorize(req)).decision).toBe('no-opinion');
    p.roles!.push(role('prod', 'secret-lister', [{ verbs: ['list'], apiGroups: [''], resources: ['secrets'] }]));
    p.roleBindings!.push(binding('m', 'prod', ['Role', 'secret-lister'], [userSubject('mallory')]));
    expect((await authz.authorize(req)).decision).toBe('allow');
    p.roles![p.roles!.length - 1].rules = [];
    expect((await authz.authorize(req)).decision).toBe('no-opinion');
  });
});

describe('rulesFor', () => {
  const authz = createRbacAuthorizer(createMemoryRbacSource(policy()));

  it('lists the rules of every ClusterRoleBinding and the namespace RoleBindings that apply', async () => {
    expect(await authz.rulesFor(bob, 'dev')).toEqual({
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['update', 'patch'], apiGroups: [''], resources: ['pods/status'] },
        { verbs: ['create'], apiGroups: [''], resources: ['pods/eviction'] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
    expect(await authz.rulesFor(bob, 'prod')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });

  it('splits resource and non-resource rules and keeps resourceNames', async () => {
    expect(await authz.rulesFor(dave, 'dev')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }],
      incomplete: false,
    });
    expect(await authz.rulesFor(erin, 'dev')).toEqual({
      resourceRules: [
        { verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] },
        { verbs: ['get', 'update', 'list', 'create', 'delete'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }],
      incomplete: false,
    });
  });

  it('includes service account bindings and reports resolution errors as evaluationError', async () => {
    const p = policy();
    p.roleBindings!.push(binding('ghost', 'dev', ['Role', 'ghost'], [{ kind: 'ServiceAccount', name: 'builder' }]));
    expect(await createRbacAuthorizer(createMemoryRbacSource(p)).rulesFor(builder, 'dev')).toEqual({
      resourceRules: [
        { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] },
        { verbs: ['get', 'patch'], apiGroups: ['apps'], resources: ['deployments'] },
      ],
      nonResourceRules: [],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.k8s.io "ghost" not found',
    });
  });
});
