import { fieldInvalid, isObj, str, type FieldError, type Obj } from '@kapi/apimachinery';

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

/** kube's validateContainerOnlyForPod: a pod's (not a template's) container image has no leading or trailing whitespace. */
export function imageWhitespaceErrors(c: Obj, at: string): FieldError[] {
  const image = str(c.image);
  return image.trim() === image ? [] : [fieldInvalid(`${at}.image`, image, 'must not have leading or trailing whitespace')];
}
