import { asObjects, isObj, type Obj } from '@kapi/apimachinery';
import { add, max, resourceList, type ResourceList } from './quota/lists.js';

/**
 * What a pod requests or is limited to as a whole (kube's PodRequests and PodLimits of its spec, as LimitRanger and
 * ResourceQuota count them): its containers' sum, its sidecars (restartable init containers) added, and at least
 * what the largest init container needs beside the sidecars started before it; with `overhead`, the pod's overhead
 * added (to every request, and to the limits it has). With `status` (kube's UseStatusResources, InPlacePodVerticalScaling
 * being on in 1.33), a container (or sidecar) whose status reports resources counts the larger of what its spec asks
 * and what it runs with or was allocated, during a resize as after it; only what it runs with when the resize is
 * infeasible (the PodResizePending condition's reason).
 */
export function podResources(spec: Obj, key: 'requests' | 'limits', options: { overhead?: boolean; status?: unknown } = {}): ResourceList {
  const statuses = new Map<string, Obj>();
  const status = isObj(options.status) ? options.status : undefined;
  if (status) for (const cs of [...asObjects(status.containerStatuses), ...asObjects(status.initContainerStatuses)]) statuses.set(String(cs.name), cs);
  const infeasible = status ? resizeInfeasible(status) : false;
  const ofSpec = (c: Obj) => resourceList(isObj(c.resources) ? c.resources[key] : undefined);
  /** kube's determineContainerReqs and determineContainerLimits. */
  const of = (c: Obj) => {
    const cs = statuses.get(String(c.name));
    if (!cs || !isObj(cs.resources)) return ofSpec(c);
    const running = resourceList(cs.resources[key]);
    if (key === 'limits') return infeasible ? running : max(ofSpec(c), running);
    const allocated = resourceList(cs.allocatedResources);
    return infeasible ? max(running, allocated) : max(max(ofSpec(c), running), allocated);
  };
  let total: ResourceList = {};
  for (const c of asObjects(spec.containers)) total = add(total, of(c));
  let sidecars: ResourceList = {};
  let inits: ResourceList = {};
  for (const c of asObjects(spec.initContainers)) {
    let needs: ResourceList;
    if (c.restartPolicy === 'Always') {
      const own = of(c);
      total = add(total, own);
      sidecars = add(sidecars, own);
      needs = sidecars;
    } else {
      // A regular init container counts what its spec asks (kube reads status resources for sidecars only).
      needs = add(ofSpec(c), sidecars);
    }
    inits = max(inits, needs);
  }
  total = max(total, inits);
  if (options.overhead && isObj(spec.overhead)) {
    const overhead = resourceList(spec.overhead);
    total = key === 'requests' ? add(total, overhead) : add(total, Object.fromEntries(Object.entries(overhead).filter(([name]) => Object.hasOwn(total, name))));
  }
  return total;
}

/** kube's IsPodResizeInfeasible: the PodResizePending condition (its first) says Infeasible. */
function resizeInfeasible(status: Obj): boolean {
  const pending = asObjects(status.conditions).find((c) => c.type === 'PodResizePending');
  return pending?.reason === 'Infeasible';
}
