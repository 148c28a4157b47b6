import { cloneJson, newBadRequest, newConflict, newInvalid, newNotFound, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost, SubresourceAction } from '@kapi/apiserver';
import { createdStatus } from './status.js';

type Binding = { metadata?: { name?: string; annotations?: Record<string, string> }; target?: { kind?: string; name?: string } };
type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { conditions?: { type?: string; status?: string }[] } };

const PODS = { group: '', resource: 'pods' };

/**
 * `bindings` and `pods/NAME/binding` (kube's BindingREST, what a scheduler posts): assigns the pod to the node the
 * Binding targets, once (a pod already on a node is 409), copying the Binding's annotations and marking the pod
 * PodScheduled. Answers a Success Status, as kube does.
 */
export function bindingAction(host: PluginHost): SubresourceAction {
  const pods = host.registry.lookup('', 'v1', 'pods');
  return async ({ ctx, name, body }) => {
    if (!pods) throw newNotFound(PODS, name);
    const binding = ((await body()) ?? {}) as Binding;
    const podName = name || binding.metadata?.name || '';
    if (name && binding.metadata?.name && binding.metadata.name !== name) {
      throw newBadRequest(`the name of the object (${binding.metadata.name}) does not match the name on the URL (${name})`);
    }
    const target = binding.target ?? {};
    const errors = [];
    if (!podName) errors.push({ type: 'FieldValueRequired' as const, field: 'metadata.name', message: 'name or generateName is required' });
    if (!target.name) errors.push({ type: 'FieldValueRequired' as const, field: 'target.name', message: '' });
    if (target.kind && target.kind !== 'Node') errors.push({ type: 'FieldValueNotSupported' as const, field: 'target.kind', badValue: target.kind, message: 'supported values: "Node"' });
    if (errors.length) throw newInvalid({ group: '', kind: 'Binding' }, podName, errors);

    await host.store.update({ ...ctx, entry: pods, subresource: 'binding' }, podName, async (current) => {
      if (!current) throw newNotFound(PODS, podName);
      const pod = cloneJson(current) as Pod;
      if (pod.spec?.nodeName) throw newConflict(PODS, podName, new Error(`pod ${podName} is already assigned to node "${pod.spec.nodeName}"`));
      pod.spec = { ...pod.spec, nodeName: target.name };
      if (binding.metadata?.annotations) pod.metadata = { ...pod.metadata, annotations: { ...pod.metadata?.annotations, ...binding.metadata.annotations } };
      const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
      pod.status = { ...pod.status, conditions: [...conditions, { type: 'PodScheduled', status: 'True' }] };
      return pod;
    });
    return createdStatus();
  };
}
