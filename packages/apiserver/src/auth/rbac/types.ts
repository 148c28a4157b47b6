// The rbac.authorization.k8s.io/v1 shapes the authorizer reads. The apiserver cannot import @kapi/api-rbac (groups
// depend on the apiserver, not the reverse), so these mirror its generated types as plain JSON.

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  /** `User`, `Group` or `ServiceAccount`; any other kind never applies. */
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  /** `Role` or `ClusterRole`. */
  kind: string;
  name: string;
}

export interface RbacObjectMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

export interface Role {
  apiVersion?: string;
  kind?: string;
  metadata: RbacObjectMeta;
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule | null;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata: RbacObjectMeta;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

/**
 * Where the RBAC authorizer reads policy (kube's RoleGetter, RoleBindingLister, ClusterRoleGetter and
 * ClusterRoleBindingLister). Called on every authorization, so each call must reflect the current objects; getters
 * resolve to undefined when the object does not exist, and any rejection is reported as a resolution error.
 */
export interface RbacSource {
  listClusterRoles(): Promise<ClusterRole[]>;
  listClusterRoleBindings(): Promise<ClusterRoleBinding[]>;
  listRoles(namespace: string): Promise<Role[]>;
  listRoleBindings(namespace: string): Promise<RoleBinding[]>;
  getClusterRole(name: string): Promise<ClusterRole | undefined>;
  getRole(namespace: string, name: string): Promise<Role | undefined>;
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
