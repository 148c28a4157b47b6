import type { KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '../plugin.js';

export const NAMESPACE_FINALIZER = 'kubernetes';

/** The immutable label kube puts on every namespace, which namespaceSelectors (NetworkPolicy, webhooks) rely on. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

type Namespace = KubeObject & { spec?: { finalizers?: string[] }; status?: { phase?: string } };

/**
 * Namespaces (kube's pkg/registry/core/namespace): created Active with the `kubernetes` finalizer in spec and the
 * `kubernetes.io/metadata.name` label; the first delete marks them Terminating and the namespace controller empties
 * them before they go.
 */
export const namespaceStrategy: Strategy = {
  prepareForCreate(obj) {
    const ns = obj as Namespace;
    ns.status = { phase: 'Active' };
    const finalizers = new Set(ns.spec?.finalizers ?? []);
    finalizers.add(NAMESPACE_FINALIZER);
    ns.spec = { ...ns.spec, finalizers: [...finalizers].sort() };
  },
  prepareForUpdate(obj, old) {
    // spec.finalizers change only through the finalize subresource.
    const ns = obj as Namespace;
    ns.spec = { ...ns.spec, finalizers: (old as Namespace).spec?.finalizers ?? [] };
    if (!(old as Namespace).spec?.finalizers) delete ns.spec.finalizers;
  },
  // After the name is known (generateName): the label always equals the name, whatever the client sent.
  canonicalize(obj) {
    const meta = obj.metadata as { name?: string; labels?: Record<string, string> };
    if (meta.name) meta.labels = { ...meta.labels, [NAMESPACE_NAME_LABEL]: meta.name };
  },
  deletionPending: (obj) => !!(obj as Namespace).spec?.finalizers?.length,
  prepareForDelete(obj) {
    (obj as Namespace).status = { ...(obj as Namespace).status, phase: 'Terminating' };
  },
  returnDeletedObject: true,
  fieldLabels: { 'status.phase': (obj) => String((obj as Namespace).status?.phase ?? '') },
};
