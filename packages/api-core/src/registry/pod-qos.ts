import { asObjects, isObj, type KubeObject, type Obj } from '@kapi/apimachinery';
import { addDecimals, decimal, sameDecimal, type Decimal } from './quantity.js';

/** The resources kube's QoS classes are computed from (isSupportedQoSComputeResource). */
const QOS_RESOURCES = new Set(['cpu', 'memory']);

/** Adds each positive cpu and memory quantity of `list` into `sums`; returns the names added. */
function accumulate(list: unknown, sums: Map<string, Decimal>): Set<string> {
  const found = new Set<string>();
  if (!isObj(list)) return found;
  for (const [name, quantity] of Object.entries(list)) {
    if (!QOS_RESOURCES.has(name)) continue;
    const value = decimal(quantity);
    if (value.n <= 0n) continue;
    found.add(name);
    const sum = sums.get(name);
    sums.set(name, sum ? addDecimals(sum, value) : value);
  }
  return found;
}

/**
 * kube's ComputePodQOS (without pod-level resources, whose feature is off in 1.33): BestEffort when no container or
 * init container asks for cpu or memory; Guaranteed when every one has cpu and memory limits and the pod's requests
 * equal its limits; Burstable otherwise. Ephemeral containers have no resources.
 */
export function computePodQOS(spec: Obj): string {
  const requests = new Map<string, Decimal>();
  const limits = new Map<string, Decimal>();
  let guaranteed = true;
  for (const c of [...asObjects(spec.containers), ...asObjects(spec.initContainers)]) {
    const resources = isObj(c.resources) ? c.resources : {};
    accumulate(resources.requests, requests);
    const limited = accumulate(resources.limits, limits);
    if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, request] of requests) {
      const limit = limits.get(name);
      if (!limit || !sameDecimal(limit, request)) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** kube's GetPodQOS: the class the pod's status already names (a client's on create too, as kube keeps it), else computed. */
export function podQOS(pod: KubeObject): string {
  const given = isObj(pod.status) ? pod.status.qosClass : undefined;
  if (typeof given === 'string' && given !== '') return given;
  return computePodQOS(isObj(pod.spec) ? pod.spec : {});
}
