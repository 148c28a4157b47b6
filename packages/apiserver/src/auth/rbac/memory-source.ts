import type { ClusterRole, ClusterRoleBinding, RbacSource, Role, RoleBinding } from './types.js';

export interface RbacPolicy {
  clusterRoles?: ClusterRole[];
  clusterRoleBindings?: ClusterRoleBinding[];
  roles?: Role[];
  roleBindings?: RoleBinding[];
}

/**
 * An RbacSource over plain arrays (tests, static policy files). It reads the arrays on every call, so pushing to
 * them changes the policy immediately; namespaced objects are matched by `metadata.namespace`.
 */
export function createMemoryRbacSource(policy: RbacPolicy): RbacSource {
  const nameOf = (o: { metadata: { name?: string } }) => o.metadata?.name;
  const inNamespace = <T extends { metadata: { namespace?: string } }>(items: T[] | undefined, namespace: string) =>
    (items ?? []).filter((o) => o.metadata?.namespace === namespace);
  return {
    listClusterRoles: async () => [...(policy.clusterRoles ?? [])],
    listClusterRoleBindings: async () => [...(policy.clusterRoleBindings ?? [])],
    listRoles: async (namespace) => inNamespace(policy.roles, namespace),
    listRoleBindings: async (namespace) => inNamespace(policy.roleBindings, namespace),
    getClusterRole: async (name) => (policy.clusterRoles ?? []).find((r) => nameOf(r) === name),
    getRole: async (namespace, name) => inNamespace(policy.roles, namespace).find((r) => nameOf(r) === name),
  };
}
