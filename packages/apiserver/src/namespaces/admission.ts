import { newForbidden, newNotFound, StatusError, type KubeObject } from '@kapi/apimachinery';
import type { AdmissionPlugin } from '../admission/types.js';

/** Namespaces that always exist and may not be deleted (kube's immortal namespaces). */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

/**
 * kube's NamespaceLifecycle admission plugin: no new content in a namespace that does not exist (404) or is being
 * terminated (403), and the immortal namespaces cannot be deleted.
 */
export function namespaceLifecycle(getNamespace: (name: string) => Promise<KubeObject | undefined>): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    operations: ['CREATE', 'DELETE'],
    async validate(attrs) {
      const isNamespace = attrs.resource.kind === 'Namespace' && attrs.resource.group === '';
      if (attrs.operation === 'DELETE') {
        if (isNamespace && IMMORTAL_NAMESPACES.includes(attrs.name)) {
          throw newForbidden({ group: '', resource: 'namespaces' }, attrs.name, 'this namespace may not be deleted');
        }
        return;
      }
      // kube's lifecycle plugin lets access reviews through: a LocalSubjectAccessReview asks about a namespace that
      // need not exist.
      const accessReview = attrs.resource.group === 'authorization.k8s.io' && attrs.resource.plural === 'localsubjectaccessreviews';
      if (isNamespace || accessReview || attrs.resource.scope !== 'Namespaced' || !attrs.namespace) return;
      const ns = await getNamespace(attrs.namespace);
      if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
      const terminating =
        (ns.metadata as { deletionTimestamp?: string }).deletionTimestamp ||
        (ns.status as { phase?: string } | undefined)?.phase === 'Terminating';
      if (terminating) {
        const message = `unable to create new content in namespace ${attrs.namespace} because it is being terminated`;
        const err = newForbidden({ group: attrs.resource.group, resource: attrs.resource.plural }, attrs.name, message);
        const status = err.status;
        status.details = {
          ...status.details,
          causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }],
        };
        throw new StatusError(status);
      }
    },
  };
}
