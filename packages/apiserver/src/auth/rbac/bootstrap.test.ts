import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../admission/types.js';
import type { AuthorizationAttributes } from '../types.js';
import { createRbacAuthorizer } from './authorizer.js';
import { BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_NAMESPACE_ROLES, ensureBootstrapPolicy } from './bootstrap.js';
import { createMemoryRbacSource, type RbacPolicy } from './memory-source.js';
import type { ClusterRole, RoleBinding } from './types.js';

const G = 'rbac.authorization.k8s.io';
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

const master: UserInfo = { username: 'kube-admin', groups: ['system:masters', 'system:authenticated'] };
const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };
const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const viewer: UserInfo = { username: 'viewer', groups: ['system:authenticated'] };
const editor: UserInfo = { username: 'editor', groups: ['system:authenticated'] };
const nsAdmin: UserInfo = { username: 'ns-admin', groups: ['system:authenticated'] };

const resource = (user: UserInfo, verb: string, res: string, o: { ns?: string; group?: string; sub?: string; name?: string } = {}): AuthorizationAttributes => ({
  user, verb, resourceRequest: true, path: '', apiGroup: o.group ?? '', apiVersion: 'v1', resource: res, subresource: o.sub ?? '', namespace: o.ns ?? '', name: o.name ?? '',
});
const nonResource = (user: UserInfo, verb: string, path: string): AuthorizationAttributes => ({
  user, verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
});
const bind = (name: string, clusterRole: string, user: string): RoleBinding => ({
  metadata: { name, namespace: 'dev' },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: clusterRole },
  subjects: [{ kind: 'User', apiGroup: G, name: user }],
});

function bootstrapPolicy(): RbacPolicy {
  return {
    clusterRoles: structuredClone([...BOOTSTRAP_CLUSTER_ROLES]),
    roles: structuredClone([...BOOTSTRAP_NAMESPACE_ROLES]),
    roleBindings: [
      bind('viewer', 'view', 'viewer'),
      bind('editor', 'edit', 'editor'),
      bind('admin', 'admin', 'ns-admin'),
      {
        metadata: { name: 'wardle-auth-reader', namespace: 'kube-system' },
        roleRef: { apiGroup: G, kind: 'Role', name: 'extension-apiserver-authentication-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'wardle', namespace: 'wardle' }],
      },
    ],
    clusterRoleBindings: [
      ...structuredClone([...BOOTSTRAP_CLUSTER_ROLE_BINDINGS]),
      {
        metadata: { name: 'wardle:system:auth-delegator' },
        roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'system:auth-delegator' },
        subjects: [{ kind: 'ServiceAccount', name: 'wardle', namespace: 'wardle' }],
      },
    ],
  };
}

describe('bootstrap policy objects', () => {
  it('names, labels and annotates every object as kube does', () => {
    expect(BOOTSTRAP_CLUSTER_ROLES.map((r) => r.metadata.name)).toEqual([
      'admin', 'cluster-admin', 'edit', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view',
      'system:auth-delegator', 'system:basic-user', 'system:discovery', 'system:kube-aggregator', 'system:public-info-viewer',
      'system:monitoring', 'system:service-account-issuer-discovery', 'view',
    ]);
    for (const obj of [...BOOTSTRAP_CLUSTER_ROLES, ...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...BOOTSTRAP_NAMESPACE_ROLES]) {
      expect(obj.apiVersion).toBe('rbac.authorization.k8s.io/v1');
      expect(obj.metadata.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(obj.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    }
    const byName = Object.fromEntries(BOOTSTRAP_CLUSTER_ROLES.map((r) => [r.metadata.name, r]));
    expect(byName.view.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(byName.edit.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] });
    expect(byName['system:discovery'].rules).toEqual([
      { nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] },
    ]);
    expect(BOOTSTRAP_CLUSTER_ROLE_BINDINGS.map((b) => [b.metadata.name, b.roleRef.name, (b.subjects ?? []).map((s) => `${s.kind}:${s.name}`)])).toEqual([
      ['cluster-admin', 'cluster-admin', ['Group:system:masters']],
      ['system:basic-user', 'system:basic-user', ['Group:system:authenticated']],
      ['system:discovery', 'system:discovery', ['Group:system:authenticated']],
      ['system:public-info-viewer', 'system:public-info-viewer', ['Group:system:authenticated', 'Group:system:unauthenticated']],
      ['system:monitoring', 'system:monitoring', ['Group:system:monitoring']],
      ['system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', ['Group:system:serviceaccounts']],
    ]);
    // kube's bootstrap policy: service accounts read the issuer's discovery documents.
    expect(byName['system:service-account-issuer-discovery'].rules).toEqual([
      { nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'], verbs: ['get'] },
    ]);
    // kube's testdata cluster-roles.yaml and namespace-roles.yaml.
    expect(byName['system:auth-delegator'].rules).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    expect(byName['system:kube-aggregator'].rules).toEqual([{ apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['get', 'list', 'watch'] }]);
    expect(BOOTSTRAP_NAMESPACE_ROLES).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: {
          name: 'extension-apiserver-authentication-reader',
          namespace: 'kube-system',
          labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
          annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
        },
        rules: [{ apiGroups: [''], resourceNames: ['extension-apiserver-authentication'], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
      },
    ]);
    expect(byName['system:monitoring'].rules).toEqual([
      { nonResourceURLs: ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'], verbs: ['get'] },
    ]);
  });
});

describe('bootstrap policy, authorized', () => {
  const authz = createRbacAuthorizer(createMemoryRbacSource(bootstrapPolicy()));
  const allowed = async (a: AuthorizationAttributes) => (await authz.authorize(a)).decision === 'allow';
  const verbs = async (user: UserInfo, res: string, o: { ns?: string; group?: string; sub?: string; name?: string } = {}) => {
    const out: string[] = [];
    for (const verb of VERBS) if (await allowed(resource(user, verb, res, o))) out.push(verb);
    return out.join(' ');
  };

  it('lets system:masters do everything', async () => {
    for (const [res, o] of [['pods', { ns: 'dev' }], ['nodes', {}], ['secrets', {}], ['flunders', { group: 'wardle.example.com', ns: 'x' }], ['pods', { ns: 'dev', sub: 'eviction' }]] as const) {
      expect(await verbs(master, res, o)).toBe(VERBS.join(' '));
    }
    expect(await allowed(resource(master, 'escalate', 'clusterroles', { group: G }))).toBe(true);
    expect(await allowed(nonResource(master, 'post', '/anything'))).toBe(true);
    expect(await authz.authorize(resource(master, 'delete', 'namespaces', { name: 'dev' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
    });
  });

  it('lets authenticated users review themselves and discover, but not read resources', async () => {
    expect(await verbs(jane, 'selfsubjectaccessreviews', { group: 'authorization.k8s.io' })).toBe('create');
    expect(await verbs(jane, 'selfsubjectrulesreviews', { group: 'authorization.k8s.io' })).toBe('create');
    expect(await verbs(jane, 'selfsubjectreviews', { group: 'authentication.k8s.io' })).toBe('create');
    expect(await verbs(jane, 'subjectaccessreviews', { group: 'authorization.k8s.io' })).toBe('');
    expect(await verbs(jane, 'pods', { ns: 'default' })).toBe('');
    expect(await verbs(jane, 'pods')).toBe('');
    const paths = ['/api', '/api/v1', '/apis', '/apis/apps/v1', '/openapi/v2', '/openapi/v3/apis/apps/v1', '/version', '/version/', '/healthz', '/livez', '/readyz', '/metrics', '/logs', '/healthz/etcd'];
    const got: string[] = [];
    for (const p of paths) if (await allowed(nonResource(jane, 'get', p))) got.push(p);
    expect(got).toEqual(paths.slice(0, 11));
    expect(await allowed(nonResource(jane, 'post', '/api'))).toBe(false);
    expect(await authz.authorize(resource(jane, 'list', 'pods', { ns: 'default' }))).toEqual({ decision: 'no-opinion' });
  });

  it('lets anonymous users get the health and version endpoints only', async () => {
    const paths = ['/healthz', '/livez', '/readyz', '/version', '/version/', '/api', '/apis', '/openapi/v2', '/metrics', '/version/x'];
    const got: string[] = [];
    for (const p of paths) if (await allowed(nonResource(anonymous, 'get', p))) got.push(p);
    expect(got).toEqual(['/healthz', '/livez', '/readyz', '/version', '/version/']);
    expect(await verbs(anonymous, 'selfsubjectaccessreviews', { group: 'authorization.k8s.io' })).toBe('');
    expect(await verbs(anonymous, 'pods', { ns: 'default' })).toBe('');
    expect(await authz.authorize(nonResource(anonymous, 'get', '/healthz'))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"',
    });
  });

  it('grants view, edit and admin through aggregation, nested', async () => {
    const rows: [string, UserInfo, string, { ns?: string; group?: string; sub?: string; name?: string }, string][] = [
      ['viewer pods', viewer, 'pods', { ns: 'dev' }, 'get list watch'],
      ['viewer pods/status', viewer, 'pods', { ns: 'dev', sub: 'status' }, 'get list watch'],
      ['viewer pods/eviction', viewer, 'pods', { ns: 'dev', sub: 'eviction' }, ''],
      ['viewer secrets', viewer, 'secrets', { ns: 'dev' }, ''],
      ['viewer deployments', viewer, 'deployments', { ns: 'dev', group: 'apps' }, 'get list watch'],
      ['viewer deployments/scale', viewer, 'deployments', { ns: 'dev', group: 'apps', sub: 'scale' }, 'get list watch'],
      ['viewer roles', viewer, 'roles', { ns: 'dev', group: G }, ''],
      ['viewer pods other namespace', viewer, 'pods', { ns: 'prod' }, ''],
      ['editor pods', editor, 'pods', { ns: 'dev' }, VERBS.join(' ')],
      ['editor pods/status', editor, 'pods', { ns: 'dev', sub: 'status' }, 'get list watch'],
      ['editor pods/eviction', editor, 'pods', { ns: 'dev', sub: 'eviction' }, 'create'],
      ['editor secrets', editor, 'secrets', { ns: 'dev' }, VERBS.join(' ')],
      ['editor deployments', editor, 'deployments', { ns: 'dev', group: 'apps' }, VERBS.join(' ')],
      ['editor deployments/status', editor, 'deployments', { ns: 'dev', group: 'apps', sub: 'status' }, 'get list watch'],
      ['editor leases', editor, 'leases', { ns: 'dev', group: 'coordination.k8s.io' }, VERBS.join(' ')],
      ['editor roles', editor, 'roles', { ns: 'dev', group: G }, ''],
      ['editor namespaces', editor, 'namespaces', { ns: 'dev', name: 'dev' }, 'get list watch'],
      ['admin roles', nsAdmin, 'rolebindings', { ns: 'dev', group: G }, VERBS.join(' ')],
      ['admin localsubjectaccessreviews', nsAdmin, 'localsubjectaccessreviews', { ns: 'dev', group: 'authorization.k8s.io' }, 'create'],
      ['admin poddisruptionbudgets', nsAdmin, 'poddisruptionbudgets', { ns: 'dev', group: 'policy' }, VERBS.join(' ')],
      ['admin resourcequotas', nsAdmin, 'resourcequotas', { ns: 'dev' }, 'get list watch'],
      ['admin nodes', nsAdmin, 'nodes', {}, ''],
    ];
    const got = [];
    for (const [label, user, res, o] of rows) got.push([label, await verbs(user, res, o)]);
    expect(got).toEqual(rows.map(([label, , , , want]) => [label, want]));
  });

  it('adds the rules of a ClusterRole labelled aggregate-to-view to view, edit and admin', async () => {
    const p = bootstrapPolicy();
    const source = createMemoryRbacSource(p);
    const a = createRbacAuthorizer(source);
    const flunders = (user: UserInfo) => resource(user, 'list', 'flunders', { ns: 'dev', group: 'wardle.example.com' });
    expect((await a.authorize(flunders(viewer))).decision).toBe('no-opinion');
    const widgets: ClusterRole = {
      metadata: { name: 'wardle-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['wardle.example.com'], resources: ['flunders'] }],
    };
    p.clusterRoles!.push(widgets);
    for (const user of [viewer, editor, nsAdmin]) expect((await a.authorize(flunders(user))).decision).toBe('allow');
    expect(await a.authorize(flunders(viewer))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "viewer/dev" of ClusterRole "view" to User "viewer"',
    });
    expect((await a.authorize(resource(viewer, 'delete', 'flunders', { ns: 'dev', group: 'wardle.example.com' }))).decision).toBe('no-opinion');
    expect((await a.authorize(flunders(jane))).decision).toBe('no-opinion');
  });

  it('lets an aggregated server bound to the aggregation roles delegate and read the trust ConfigMap only', async () => {
    const wardle: UserInfo = { username: 'system:serviceaccount:wardle:wardle', groups: ['system:serviceaccounts', 'system:serviceaccounts:wardle', 'system:authenticated'] };
    expect(await verbs(wardle, 'tokenreviews', { group: 'authentication.k8s.io' })).toBe('create');
    expect(await verbs(wardle, 'subjectaccessreviews', { group: 'authorization.k8s.io' })).toBe('create');
    expect(await verbs(wardle, 'configmaps', { ns: 'kube-system', name: 'extension-apiserver-authentication' })).toBe('get list watch');
    expect(await verbs(wardle, 'configmaps', { ns: 'kube-system', name: 'other' })).toBe('');
    expect(await verbs(wardle, 'configmaps', { ns: 'kube-system' })).toBe('');
    expect(await verbs(wardle, 'configmaps', { ns: 'default', name: 'extension-apiserver-authentication' })).toBe('');
    expect(await verbs(wardle, 'secrets', { ns: 'kube-system', name: 'extension-apiserver-authentication' })).toBe('');
  });

  it('reports the rules a subject has, as SelfSubjectRulesReview shows them', async () => {
    expect(await authz.rulesFor(anonymous, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }],
      incomplete: false,
    });
    expect(await authz.rulesFor(jane, 'default')).toEqual({
      resourceRules: [
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
        { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
      ],
      nonResourceRules: [
        { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
      ],
      incomplete: false,
    });
    expect(await authz.rulesFor(master, '')).toEqual({
      resourceRules: [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
        { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
      ],
      nonResourceRules: [
        { verbs: ['*'], nonResourceURLs: ['*'] },
        { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
      ],
      incomplete: false,
    });
    const viewRules = (await authz.rulesFor(viewer, 'dev')).resourceRules;
    expect(viewRules.length).toBe(2 + 10);
    expect(viewRules[2]).toEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'] });
  });
});

describe('ensureBootstrapPolicy', () => {
  it('creates roles then bindings, skipping existing ones', async () => {
    const calls: string[] = [];
    const created = await ensureBootstrapPolicy(
      async (kind, obj) => {
        calls.push([kind, obj.metadata.namespace, obj.metadata.name].filter(Boolean).join('/'));
        if (obj.metadata.name === 'view') throw Object.assign(new Error('exists'), { status: { reason: 'AlreadyExists', code: 409 } });
      },
      { exists: async (kind, name) => kind === 'ClusterRoleBinding' && name === 'cluster-admin' },
    );
    expect(calls).toEqual([
      ...BOOTSTRAP_CLUSTER_ROLES.map((r) => `ClusterRole/${r.metadata.name}`),
      'ClusterRoleBinding/system:basic-user',
      'ClusterRoleBinding/system:discovery',
      'ClusterRoleBinding/system:public-info-viewer',
      'ClusterRoleBinding/system:monitoring',
      'ClusterRoleBinding/system:service-account-issuer-discovery',
      'Role/kube-system/extension-apiserver-authentication-reader',
    ]);
    expect(created).toEqual(calls.filter((c) => c !== 'ClusterRole/view'));
  });

  it('passes copies and rethrows other failures', async () => {
    await ensureBootstrapPolicy(async (_kind, obj) => {
      obj.metadata.name = 'mutated';
    });
    expect(BOOTSTRAP_CLUSTER_ROLES[0].metadata.name).toBe('admin');
    await expect(ensureBootstrapPolicy(async () => Promise.reject(new Error('storage is down')))).rejects.toThrow('storage is down');
  });
});
