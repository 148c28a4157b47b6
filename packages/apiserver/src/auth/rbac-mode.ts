import type { KubeObject } from '@kapi/apimachinery';
import type { ResourceEntry } from '../registry/resources.js';
import type { AuthorizerFactory } from './host.js';
import { createRbacAuthorizer, createStoreRbacSource, ensureBootstrapPolicy, RBAC_GROUP } from './rbac/index.js';
import { rbacEscalationPrevention } from './rbac/escalation.js';

/**
 * `--authorization-mode=RBAC` for createApiServer's `authorizers`: the RBAC authorizer reading Roles, ClusterRoles
 * and their bindings from the server's storage, and kube's bootstrap policy (cluster-admin bound to system:masters,
 * discovery and public info for everyone, system:auth-delegator, kube-system's
 * extension-apiserver-authentication-reader Role...) created at start where missing, and kube's escalation prevention for
 * roles and bindings (a validating admission plugin).
 */
export function rbacAuthorizer(options: { log?: (level: number, message: string) => void } = {}): AuthorizerFactory {
  return (host) => {
    const ctx = (entry: ResourceEntry, namespace?: string) => host.systemContext(entry, { namespace });
    host.onStart(async () => {
      const created = await ensureBootstrapPolicy(
        async (kind, obj) => {
          const entry = host.registry.byKind(RBAC_GROUP, 'v1', kind);
          if (entry) await host.store.create(ctx(entry, obj.metadata.namespace), obj as unknown as KubeObject);
        },
        {
          async exists(kind, name, namespace) {
            const entry = host.registry.byKind(RBAC_GROUP, 'v1', kind);
            return !entry || (await host.store.find(ctx(entry, namespace), name)) !== undefined;
          },
        },
      );
      for (const name of created) options.log?.(2, `created bootstrap RBAC policy ${name}`);
    });
    const source = createStoreRbacSource(host.store, host.registry, host.systemUser);
    const authorizer = createRbacAuthorizer(source);
    host.addAdmission(rbacEscalationPrevention(source, authorizer));
    return authorizer;
  };
}
