import { cloneJson, canonicalQuantity, isObj, newForbidden, str, type KubeObject } from '@kapi/apimachinery';
import type { AdmissionPlugin, PluginHost, ResourceEntry } from '@kapi/apiserver';
import { isDeepStrictEqual } from 'node:util';

type Obj = Record<string, unknown>;
type RuntimeClass = KubeObject & { overhead?: { podFixed?: Obj }; scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Obj[] } };

const PODS = { group: '', resource: 'pods' };

/** Two resource lists alike as kube's semantic equality has them: the same names, each with an equal quantity. */
function sameResources(a: Obj | undefined, b: Obj | undefined): boolean {
  const keys = (o: Obj | undefined) => Object.keys(o ?? {}).sort();
  if (!isDeepStrictEqual(keys(a), keys(b))) return false;
  const canonical = (q: unknown) => {
    try {
      return canonicalQuantity(q as string);
    } catch {
      return String(q);
    }
  };
  return keys(a).every((k) => canonical(a![k]) === canonical(b![k]));
}

/**
 * kube's RuntimeClass admission (plugin/pkg/admission/runtimeclass), on by default, for Pods created: the class a
 * Pod names must exist (403 otherwise); its overhead becomes the Pod's (a different overhead of the Pod's own is
 * 403), its scheduling node selector is merged into the Pod's (a conflicting label is 403) and its tolerations are
 * added; and a Pod may carry an overhead only as its class defines it.
 */
export function runtimeClassAdmission(host: PluginHost, classes: ResourceEntry): AdmissionPlugin {
  const ctx = host.systemContext(classes);
  /** The Pod's class: undefined when it names none; 403 when the class does not exist. */
  async function classOf(pod: KubeObject, podName: string): Promise<RuntimeClass | undefined> {
    const name = isObj(pod.spec) ? pod.spec.runtimeClassName : undefined;
    if (typeof name !== 'string' || name === '') return undefined;
    const found = (await host.store.find(ctx, name)) as RuntimeClass | undefined;
    if (!found) throw newForbidden(PODS, podName, `runtimeclasses.node.k8s.io "${name}" not found`);
    return found;
  }
  const applies = (attrs: Parameters<NonNullable<AdmissionPlugin['mutate']>>[0]) =>
    attrs.operation === 'CREATE' && !attrs.subresource && attrs.resource.group === '' && attrs.resource.kind === 'Pod' && !!attrs.object;
  return {
    name: 'RuntimeClass',
    operations: ['CREATE'],
    matches: applies,
    async mutate(attrs) {
      if (!applies(attrs)) return;
      const pod = attrs.object!;
      const podName = attrs.name || str(pod.metadata?.name);
      const rc = await classOf(pod, podName);
      if (!rc) return;
      const spec = (pod.spec ??= {}) as Obj;
      const podFixed = rc.overhead?.podFixed;
      if (podFixed) {
        const own = spec.overhead as Obj | undefined;
        if (own && Object.keys(own).length && !sameResources(own, podFixed)) {
          throw newForbidden(PODS, podName, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
        }
        spec.overhead = cloneJson(podFixed);
      }
      const scheduling = rc.scheduling;
      if (!scheduling) return;
      const selector = { ...((spec.nodeSelector as Record<string, string> | undefined) ?? {}) };
      for (const [key, value] of Object.entries(scheduling.nodeSelector ?? {})) {
        if (key in selector && selector[key] !== value) {
          throw newForbidden(PODS, podName, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${selector[key]}`);
        }
        selector[key] = value;
      }
      if (Object.keys(selector).length) spec.nodeSelector = selector;
      const tolerations = Array.isArray(spec.tolerations) ? [...(spec.tolerations as Obj[])] : [];
      for (const t of scheduling.tolerations ?? []) if (!tolerations.some((own) => isDeepStrictEqual(own, t))) tolerations.push(cloneJson(t));
      if (tolerations.length) spec.tolerations = tolerations;
    },
    async validate(attrs) {
      if (!applies(attrs)) return;
      const pod = attrs.object!;
      const podName = attrs.name || str(pod.metadata?.name);
      const rc = await classOf(pod, podName);
      const own = isObj(pod.spec) ? (pod.spec.overhead as Obj | undefined) : undefined;
      const podFixed = rc?.overhead?.podFixed;
      if (podFixed) {
        if (!sameResources(own, podFixed)) throw newForbidden(PODS, podName, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      } else if (own !== undefined && own !== null) {
        throw newForbidden(PODS, podName, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
      }
    },
  };
}
