import { isObj, type Obj } from '@kapi/apimachinery';

/**
 * Every container of a pod spec with its field path, in kube's VisitContainersWithPath order: init containers,
 * containers, ephemeral containers.
 */
export function containersWithPath(spec: Obj, field: string): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = spec[kind];
    if (Array.isArray(list)) list.forEach((c, i) => isObj(c) && out.push([c, `${field}.${kind}[${i}]`]));
  }
  return out;
}
