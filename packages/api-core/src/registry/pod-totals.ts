import { asObjects, isObj, type Obj } from '@kapi/apimachinery';
import { add, max, resourceList, type ResourceList } from './quota/lists.js';

/**
 * What a pod requests or is limited to as a whole (kube's PodRequests and PodLimits of its spec, as LimitRanger and
 * ResourceQuota count them): its containers' sum, its sidecars (restartable init containers) added, and at least
 * what the largest init container needs beside the sidecars started before it; with `overhead`, the pod's overhead
 * added (to every request, and to the limits it has).
 */
export function podResources(spec: Obj, key: 'requests' | 'limits', options: { overhead?: boolean } = {}): ResourceList {
  const of = (c: Obj) => resourceList(isObj(c.resources) ? c.resources[key] : undefined);
  let total: ResourceList = {};
  for (const c of asObjects(spec.containers)) total = add(total, of(c));
  let sidecars: ResourceList = {};
  let inits: ResourceList = {};
  for (const c of asObjects(spec.initContainers)) {
    let needs: ResourceList;
    if (c.restartPolicy === 'Always') {
      total = add(total, of(c));
      sidecars = add(sidecars, of(c));
      needs = sidecars;
    } else {
      needs = add(of(c), sidecars);
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
