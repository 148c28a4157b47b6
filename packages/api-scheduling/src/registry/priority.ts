import { at, newForbidden, str, type KubeObject } from '@kapi/apimachinery';
import type { AdmissionPlugin, PluginHost, ResourceEntry } from '@kapi/apiserver';

type PriorityClass = KubeObject & { value?: number; globalDefault?: boolean; preemptionPolicy?: string };
type PodSpec = { priorityClassName?: string; priority?: number; preemptionPolicy?: string };

const PODS = { group: '', resource: 'pods' };
const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };
const DEFAULT_PREEMPTION = 'PreemptLowerPriority';

/**
 * kube's Priority admission plugin (plugin/pkg/admission/priority): a new Pod gets the value and preemption policy
 * of its PriorityClass (or of the global default class, or priority 0), an unknown class is 403, and a pod may
 * not set a priority of its own; at most one PriorityClass is the global default.
 */
export function priorityAdmission(host: PluginHost, classes: ResourceEntry): AdmissionPlugin {
  const ctx = host.systemContext(classes);
  const all = async () => (await host.store.list(ctx)).items as PriorityClass[];
  return {
    name: 'Priority',
    operations: ['CREATE', 'UPDATE'],
    matches: (attrs) =>
      !attrs.subresource &&
      ((attrs.resource.group === '' && attrs.resource.kind === 'Pod') || (attrs.resource.group === 'scheduling.k8s.io' && attrs.resource.kind === 'PriorityClass')),
    async mutate(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.subresource || attrs.resource.group !== '' || attrs.resource.kind !== 'Pod' || !attrs.object) return;
      const pod = attrs.object;
      const spec = (pod.spec ??= {}) as PodSpec;
      const name = attrs.name || str(at(pod, 'metadata.name'));
      let value = 0;
      let policy = DEFAULT_PREEMPTION;
      if (spec.priorityClassName) {
        const found = (await all()).find((c) => c.metadata?.name === spec.priorityClassName);
        if (!found) throw newForbidden(PODS, name, `no PriorityClass with name ${spec.priorityClassName} was found`);
        value = found.value ?? 0;
        policy = found.preemptionPolicy ?? DEFAULT_PREEMPTION;
      } else {
        const global = (await all()).filter((c) => c.globalDefault).sort((a, b) => (a.value ?? 0) - (b.value ?? 0))[0];
        if (global) {
          spec.priorityClassName = String(global.metadata?.name);
          value = global.value ?? 0;
          policy = global.preemptionPolicy ?? DEFAULT_PREEMPTION;
        }
      }
      if (spec.priority !== undefined && spec.priority !== value) {
        throw newForbidden(PODS, name, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`);
      }
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
        throw newForbidden(PODS, name, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
      }
      spec.priority = value;
      spec.preemptionPolicy = policy;
    },
    async validate(attrs) {
      if (attrs.subresource || attrs.resource.group !== 'scheduling.k8s.io' || attrs.resource.kind !== 'PriorityClass') return;
      const pc = attrs.object as PriorityClass | undefined;
      if (!pc?.globalDefault) return;
      const other = (await all()).find((c) => c.globalDefault && c.metadata?.name !== pc.metadata?.name);
      if (other) {
        throw newForbidden(PRIORITY_CLASSES, String(pc.metadata?.name), `PriorityClass ${other.metadata?.name} is already marked as default. Only one default can exist`);
      }
    },
  };
}
