import { isDeepStrictEqual } from 'node:util';
import { cloneJson, asObjects, fieldForbidden, fieldNotFound, isObj, str, type FieldError, type KubeObject, type Obj } from '@kapi/apimachinery';
import { MIRROR_POD_ANNOTATION } from './pod-annotations.js';

// kube 1.33's ephemeral containers (pkg/apis/core/validation validateEphemeralContainers and
// ValidatePodEphemeralContainersUpdate, pkg/registry/core/pod EphemeralContainersStrategy): debugging containers
// added to a running pod through its `ephemeralcontainers` subresource (kubectl debug), never changed or removed.

/**
 * The Container fields kube's allowedEphemeralContainerFields leaves out, in the struct's field order (the order of
 * kube's errors). `pointer`: a Go pointer or slice, set as soon as it is given (an empty probe or port list counts);
 * `resources` is a struct, set when some field of it is.
 */
const NOT_ALLOWED: [name: string, pointer: boolean][] = [
  ['ports', true], ['resources', false], ['resizePolicy', true], ['restartPolicy', true],
  ['livenessProbe', true], ['readinessProbe', true], ['startupProbe', true], ['lifecycle', true],
];

const NOT_FOR_EPHEMERAL = 'cannot be set for an Ephemeral Container';

/** Whether a Go struct value decoded from `value` would not be its zero value (a struct: some field set). */
function setValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0) return false;
  if (isObj(value)) return Object.values(value).some(setValue);
  return true;
}

/**
 * What only an ephemeral container is checked for (its common container checks and unique name are the pod
 * validation's): a target that is one of the pod's other containers, only the allowed fields, and no sub-paths in
 * its volume mounts (they could make the node's tools reach arbitrary paths).
 */
export function ephemeralContainerErrors(c: Obj, at: string, others: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const target = str(c.targetContainerName);
  if (target && !others.has(target)) errs.push(fieldNotFound(`${at}.targetContainerName`, target));
  for (const [name, pointer] of NOT_ALLOWED) {
    const value = c[name];
    if (pointer ? value !== undefined && value !== null : setValue(value)) errs.push(fieldForbidden(`${at}.${name}`, NOT_FOR_EPHEMERAL));
  }
  asObjects(c.volumeMounts).forEach((m, i) => {
    for (const key of ['subPath', 'subPathExpr']) if (str(m[key])) errs.push(fieldForbidden(`${at}.volumeMounts[${i}].${key}`, NOT_FOR_EPHEMERAL));
  });
  return errs;
}

/** kube's dropNonEphemeralContainerUpdates: the stored pod with only its ephemeral containers taken from `obj`. */
export function withEphemeralContainers(obj: KubeObject, old: KubeObject): KubeObject {
  const pod = cloneJson(old);
  const spec = (pod.spec ??= {}) as Obj;
  const given = isObj(obj.spec) ? obj.spec.ephemeralContainers : undefined;
  if (given === undefined) delete spec.ephemeralContainers;
  else spec.ephemeralContainers = cloneJson(given);
  return pod;
}

/**
 * kube's ValidatePodEphemeralContainersUpdate, after the pod's own checks (`podErrors`): a static (mirror) pod takes
 * none, and the ephemeral containers already there may not be removed or changed. (kube appends a cmp.Diff of the
 * change to the message; this server does not.)
 */
export function ephemeralContainersUpdateErrors(pod: KubeObject, old: KubeObject, podErrors: FieldError[]): FieldError[] {
  if (isObj(old.metadata?.annotations) && MIRROR_POD_ANNOTATION in old.metadata.annotations) {
    return [fieldForbidden('', 'static pods do not support ephemeral containers')];
  }
  const errs = [...podErrors];
  const now = new Map(asObjects(isObj(pod.spec) ? pod.spec.ephemeralContainers : undefined).map((c) => [str(c.name), c]));
  for (const was of asObjects(isObj(old.spec) ? old.spec.ephemeralContainers : undefined)) {
    const name = str(was.name);
    const c = now.get(name);
    if (!c) errs.push(fieldForbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`));
    else if (!isDeepStrictEqual(c, was)) errs.push(fieldForbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n`));
  }
  return errs;
}
