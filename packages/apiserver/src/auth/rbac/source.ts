import type { UserInfo } from '../../admission/types.js';
import { ALL_OBJECTS } from '../../registry/list.js';
import type { ResourceEntry, ResourceRegistry } from '../../registry/resources.js';
import type { RequestContext, Store } from '../../registry/store.js';
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type RbacSource, type Role, type RoleBinding } from './types.js';


/**
 * An RbacSource reading the four RBAC kinds through the generic Store, as `user`, at the current revision on every
 * call. When the rbac.authorization.k8s.io group is not installed there is no policy: lists are empty and gets
 * find nothing.
 */
export function createStoreRbacSource(store: Store, registry: ResourceRegistry, user: UserInfo): RbacSource {
  const entry = (kind: string) => registry.byKind(RBAC_GROUP, 'v1', kind);
  const ctx = (e: ResourceEntry, namespace: string): RequestContext => ({ entry: e, namespace, user, dryRun: false, subresource: '' });

  const list = async <T>(kind: string, namespace: string): Promise<T[]> => {
    const e = entry(kind);
    if (!e) return [];
    return (await store.list(ctx(e, namespace), ALL_OBJECTS)).items as unknown as T[];
  };

  const get = async <T>(kind: string, namespace: string, name: string): Promise<T | undefined> => {
    const e = entry(kind);
    if (!e || !name) return undefined;
    return (await store.find(ctx(e, namespace), name)) as unknown as T | undefined;
  };

  return {
    listClusterRoles: () => list<ClusterRole>('ClusterRole', ''),
    listClusterRoleBindings: () => list<ClusterRoleBinding>('ClusterRoleBinding', ''),
    // An empty namespace would list across all namespaces: a namespaced lookup always needs one.
    listRoles: (namespace) => (namespace ? list<Role>('Role', namespace) : Promise.resolve([])),
    listRoleBindings: (namespace) => (namespace ? list<RoleBinding>('RoleBinding', namespace) : Promise.resolve([])),
    getClusterRole: (name) => get<ClusterRole>('ClusterRole', '', name),
    getRole: (namespace, name) => (namespace ? get<Role>('Role', namespace, name) : Promise.resolve(undefined)),
  };
}
