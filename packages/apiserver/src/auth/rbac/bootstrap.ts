import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Role } from './types.js';

// kube-apiserver's bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy, as its testdata
// cluster-roles.yaml serializes it): the user-facing roles and the discovery roles every cluster starts with.
// Rules keep kube's order, with each list sorted as kube's rule builder sorts it.

const API_VERSION = `${RBAC_GROUP}/v1`;
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const ANNOTATIONS = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups, resourceNames, resources, verbs } : { apiGroups, resources, verbs };
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): ClusterRole {
  const role: ClusterRole = {
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...LABELS, ...extra.labels }, annotations: { ...ANNOTATIONS } },
    rules,
  };
  if (extra.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] };
  return role;
}

function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return {
    apiVersion: API_VERSION,
    kind: 'Role',
    metadata: { name, namespace, labels: { ...LABELS }, annotations: { ...ANNOTATIONS } },
    rules,
  };
}

function clusterRoleBinding(name: string, roleName: string, groups: string[]): ClusterRoleBinding {
  return {
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...LABELS }, annotations: { ...ANNOTATIONS } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    subjects: groups.map((group) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name: group })),
  };
}

export const BOOTSTRAP_CLUSTER_ROLES: readonly ClusterRole[] = [
  // admin ⊇ edit ⊇ view: edit carries admin's label and view carries edit's, so aggregation nests.
  clusterRole('admin', [], { aggregateFrom: AGGREGATE_TO_ADMIN }),
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  clusterRole('edit', [], { aggregateFrom: AGGREGATE_TO_EDIT, labels: { [AGGREGATE_TO_ADMIN]: 'true' } }),
  clusterRole(
    'system:aggregate-to-admin',
    [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [RBAC_GROUP], ['rolebindings', 'roles']),
    ],
    { labels: { [AGGREGATE_TO_ADMIN]: 'true' } },
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(WRITE, [''], [
        'configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale',
        'secrets', 'serviceaccounts', 'services', 'services/proxy',
      ]),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(WRITE, ['apps'], [
        'daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale',
        'statefulsets', 'statefulsets/scale',
      ]),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
      rule(WRITE, ['extensions'], [
        'daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies',
        'replicasets', 'replicasets/scale', 'replicationcontrollers/scale',
      ]),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
    ],
    { labels: { [AGGREGATE_TO_EDIT]: 'true' } },
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      rule(READ, [''], [
        'configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods',
        'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status',
      ]),
      rule(READ, [''], [
        'bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status',
        'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status',
      ]),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['discovery.k8s.io'], ['endpointslices']),
      rule(READ, ['apps'], [
        'controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale',
        'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets',
        'statefulsets/scale', 'statefulsets/status',
      ]),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(READ, ['extensions'], [
        'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses',
        'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status',
        'replicationcontrollers/scale',
      ]),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    { labels: { [AGGREGATE_TO_VIEW]: 'true' } },
  ),
  // What an aggregated API server's own service account is bound to, so that it can delegate authentication
  // (TokenReview) and authorization (SubjectAccessReview) to this server.
  clusterRole('system:auth-delegator', [
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  ]),
  clusterRole('system:basic-user', [
    rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  clusterRole('system:discovery', [
    urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/']),
  ]),
  // What kube-aggregator reads to resolve an APIService's Service to an endpoint (kube binds nobody to it).
  clusterRole('system:kube-aggregator', [rule(READ, [''], ['endpoints', 'services'])]),
  clusterRole('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
  clusterRole('system:monitoring', [
    urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*']),
  ]),
  // The service-account issuer's OpenID discovery documents, for workloads that verify tokens (kube binds it to every
  // service account).
  clusterRole('system:service-account-issuer-discovery', [
    urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/']),
  ]),
  clusterRole('view', [], { aggregateFrom: AGGREGATE_TO_VIEW, labels: { [AGGREGATE_TO_EDIT]: 'true' } }),
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = [
  clusterRoleBinding('cluster-admin', 'cluster-admin', ['system:masters']),
  clusterRoleBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
  clusterRoleBinding('system:discovery', 'system:discovery', ['system:authenticated']),
  clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
  clusterRoleBinding('system:monitoring', 'system:monitoring', ['system:monitoring']),
  clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', ['system:serviceaccounts']),
];

/** The namespace kube's namespaced bootstrap roles live in; the server creates it at start. */
export const KUBE_SYSTEM = 'kube-system';

/** The ConfigMap the main server publishes its client and front-proxy trust in, for aggregated API servers. */
export const EXTENSION_APISERVER_AUTHENTICATION = 'extension-apiserver-authentication';

// kube's namespace_policy.go, as its testdata namespace-roles.yaml serializes it: only the roles Kapi has a use for.
export const BOOTSTRAP_NAMESPACE_ROLES: readonly Role[] = [
  // An aggregated API server's service account is bound to it (RoleBinding in kube-system) to read the
  // authentication trust the main server publishes.
  role(KUBE_SYSTEM, 'extension-apiserver-authentication-reader', [
    rule(READ, [''], ['configmaps'], [EXTENSION_APISERVER_AUTHENTICATION]),
  ]),
];

export type BootstrapKind = 'ClusterRole' | 'ClusterRoleBinding' | 'Role';

export interface EnsureBootstrapOptions {
  /**
   * Whether the object already exists (`namespace` is set for a Role); when given, existing objects are left alone
   * without calling `create`.
   */
  exists?(kind: BootstrapKind, name: string, namespace?: string): Promise<boolean>;
}

const alreadyExists = (err: unknown) => {
  const e = err as { status?: { reason?: string }; code?: string; reason?: string };
  return e?.status?.reason === 'AlreadyExists' || e?.reason === 'AlreadyExists' || e?.code === 'KeyExists';
};

/**
 * Creates the bootstrap ClusterRoles, ClusterRoleBindings, then namespaced Roles, that do not exist yet (kube's
 * storage_rbac post-start hook, which never overwrites what an operator changed here). `create` receives a fresh
 * copy of each object (a Role carries its `metadata.namespace`, which must exist); an AlreadyExists rejection
 * counts as present. Resolves to the names created, as `<Kind>/<name>` (`Role/<namespace>/<name>`).
 */
export async function ensureBootstrapPolicy(
  create: (kind: BootstrapKind, obj: ClusterRole | ClusterRoleBinding | Role) => Promise<void>,
  options: EnsureBootstrapOptions = {},
): Promise<string[]> {
  const created: string[] = [];
  const ensure = async (kind: BootstrapKind, obj: ClusterRole | ClusterRoleBinding | Role) => {
    const name = String(obj.metadata.name);
    const namespace = obj.metadata.namespace;
    if (options.exists && (await options.exists(kind, name, namespace))) return;
    try {
      await create(kind, structuredClone(obj));
      created.push(namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`);
    } catch (err) {
      if (!alreadyExists(err)) throw err;
    }
  };
  for (const role of BOOTSTRAP_CLUSTER_ROLES) await ensure('ClusterRole', role);
  for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS) await ensure('ClusterRoleBinding', binding);
  for (const role of BOOTSTRAP_NAMESPACE_ROLES) await ensure('Role', role);
  return created;
}
