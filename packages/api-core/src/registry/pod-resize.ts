import { cloneJson, asObjects, fieldForbidden, fieldInvalid, isObj, str, type FieldError, type KubeObject, type Obj } from '@kapi/apimachinery';
import { MIRROR_POD_ANNOTATION } from './pod-annotations.js';
import { computePodQOS, podQOS } from './pod-qos.js';
import { compareQuantities } from './quantity.js';
import { semanticallyEqual } from './semantic.js';

// kube 1.33's in-place pod resize (InPlacePodVerticalScaling, beta and on by default): a pod's containers get new cpu
// and memory requests and limits through its `resize` subresource (`kubectl patch --subresource resize`), kube's
// ResizeStrategy (pkg/registry/core/pod) and ValidatePodResize (pkg/apis/core/validation). The node does the rest.

const CONTAINER_LISTS = ['containers', 'initContainers'] as const;
const RESIZED = ['cpu', 'memory'];
const ONLY_CPU_MEMORY = 'only cpu and memory resources are mutable';

const specOf = (pod: KubeObject): Obj => (isObj(pod.spec) ? pod.spec : {});
const isSidecar = (c: Obj) => c.restartPolicy === 'Always';

/** Whether the containers of both pods are the same in number and names, in order (what a resize may not change). */
function sameContainers(spec: Obj, before: Obj): boolean {
  return CONTAINER_LISTS.every((key) => {
    const now = asObjects(spec[key]);
    const was = asObjects(before[key]);
    return now.length === was.length && now.every((c, i) => c.name === was[i].name);
  });
}

/**
 * kube's dropNonResizeUpdates: the stored pod with only its containers' and init containers' `resources` and
 * `resizePolicy` taken from `obj`. A pod whose containers were added, removed, reordered or renamed is taken as
 * given, for the validation to refuse.
 */
export function withResizedResources(obj: KubeObject, old: KubeObject): KubeObject {
  const given = specOf(obj);
  if (!sameContainers(given, specOf(old))) return cloneJson(obj);
  const pod = cloneJson(old);
  const spec = (pod.spec ??= {}) as Obj;
  for (const key of CONTAINER_LISTS) {
    const now = asObjects(given[key]);
    asObjects(spec[key]).forEach((c, i) => {
      for (const field of ['resources', 'resizePolicy']) {
        if (now[i][field] === undefined) delete c[field];
        else c[field] = cloneJson(now[i][field]);
      }
    });
  }
  return pod;
}

/** Whether `list` lacks some resource `before` had (kube's resourcesRemoved). */
function resourcesRemoved(list: unknown, before: unknown): boolean {
  const now = isObj(list) ? list : {};
  return isObj(before) && Object.keys(before).some((name) => !Object.hasOwn(now, name));
}

/** kube's validateContainerResize: no request or limit removed, and a memory limit only lowered or added on restart. */
function containerResizeErrors(c: Obj, was: Obj, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const resources = isObj(c.resources) ? c.resources : {};
  const before = isObj(was.resources) ? was.resources : {};
  if (resourcesRemoved(resources.requests, before.requests)) errs.push(fieldForbidden(`${at}.requests`, 'resource requests cannot be removed'));
  if (resourcesRemoved(resources.limits, before.limits)) errs.push(fieldForbidden(`${at}.limits`, 'resource limits cannot be removed'));
  const memoryPolicy = asObjects(c.resizePolicy).find((p) => p.resourceName === 'memory')?.restartPolicy;
  if (memoryPolicy === undefined || memoryPolicy === '' || memoryPolicy === 'NotRequired') {
    const limit = isObj(resources.limits) ? resources.limits.memory : undefined;
    const oldLimit = isObj(before.limits) ? before.limits.memory : undefined;
    if (limit !== undefined && oldLimit !== undefined && compareQuantities(limit, oldLimit) < 0) {
      errs.push(fieldForbidden(`${at}.limits[memory]`, 'memory limits cannot be decreased unless resizePolicy is RestartContainer'));
    } else if (limit !== undefined && oldLimit === undefined) {
      errs.push(fieldForbidden(`${at}.limits[memory]`, 'memory limits cannot be added unless resizePolicy is RestartContainer'));
    }
  }
  return errs;
}

/**
 * kube's dropCPUMemoryUpdates: `list` with its cpu and memory taken from `before` (none when `before` has no list),
 * so that what is left to compare is every other resource.
 */
function withOldCpuMemory(list: unknown, before: unknown): Obj | undefined {
  if (!isObj(before)) return undefined;
  const munged: Obj = isObj(list) ? { ...list } : {};
  for (const name of RESIZED) {
    delete munged[name];
    if (Object.hasOwn(before, name)) munged[name] = before[name];
  }
  return munged;
}

/** Resource lists equal as kube's semantic equality has them: the same names, each quantity the same amount (an empty list is none). */
function sameResourceList(a: unknown, b: unknown): boolean {
  const left = isObj(a) ? a : {};
  const right = isObj(b) ? b : {};
  const names = Object.keys(left);
  return names.length === Object.keys(right).length && names.every((n) => Object.hasOwn(right, n) && compareQuantities(left[n], right[n]) === 0);
}

/** Whether a container's fields other than its resource limits and requests differ (resizePolicy and claims included). */
function otherFieldsChanged(c: Obj, was: Obj): boolean {
  const rest = (x: Obj) => ({ ...x, resources: { ...(isObj(x.resources) ? x.resources : {}), limits: undefined, requests: undefined } });
  return !semanticallyEqual(rest(c), rest(was));
}

/** Whether a container changed in anything but its cpu and memory (kube's dropCPUMemoryResourcesFromContainer, then DeepEqual). */
function changedBeyondCpuMemory(c: Obj, was: Obj): boolean {
  const resources = isObj(c.resources) ? c.resources : {};
  const before = isObj(was.resources) ? was.resources : {};
  return (
    !sameResourceList(withOldCpuMemory(resources.limits, before.limits), before.limits) ||
    !sameResourceList(withOldCpuMemory(resources.requests, before.requests), before.requests) ||
    otherFieldsChanged(c, was)
  );
}

/** Whether a container changed at all. */
function containerChanged(c: Obj, was: Obj): boolean {
  const resources = isObj(c.resources) ? c.resources : {};
  const before = isObj(was.resources) ? was.resources : {};
  return !sameResourceList(resources.limits, before.limits) || !sameResourceList(resources.requests, before.requests) || otherFieldsChanged(c, was);
}

/**
 * kube's ValidatePodResize, after the pod's own checks (`podErrors`): not a pod with pod-level resources, a static
 * pod or a Windows pod; the same QoS class; a node that can resize (a running container reports its resources); no
 * request or limit removed, memory limits lowered or added only with a RestartContainer policy; and only the cpu and
 * memory of containers and sidecar (restartable init) containers changed.
 */
export function podResizeErrors(pod: KubeObject, old: KubeObject, podErrors: FieldError[]): FieldError[] {
  const spec = specOf(pod);
  const before = specOf(old);
  const podLevel = (s: Obj) => isObj(s.resources) && [s.resources.requests, s.resources.limits].some((l) => isObj(l) && Object.keys(l).length > 0);
  if (podLevel(before) || podLevel(spec)) return [fieldForbidden('', 'pods with pod-level resources cannot be resized')];
  if (isObj(old.metadata?.annotations) && MIRROR_POD_ANNOTATION in old.metadata.annotations) return [fieldForbidden('', 'static pods cannot be resized')];
  if (isObj(before.os) && before.os.name === 'windows') return [fieldForbidden('', 'windows pods cannot be resized')];

  const errs = [...podErrors];
  if (podQOS(old) !== computePodQOS(spec)) {
    errs.push(fieldInvalid('spec', isObj(pod.status) ? str(pod.status.qosClass) : '', 'Pod QOS Class may not change as a result of resizing'));
  }
  if (!nodeCanResize(old)) errs.push(fieldForbidden('spec', 'Pod running on node without support for resize'));
  // kube indexes the new containers by the old ones' positions (and fails on a count that changed): here that is
  // refused as a change to more than cpu and memory.
  if (!sameContainers(spec, before)) return [...errs, fieldForbidden('spec', ONLY_CPU_MEMORY)];

  const inits = asObjects(spec.initContainers);
  const oldInits = asObjects(before.initContainers);
  const containers = asObjects(spec.containers);
  const oldContainers = asObjects(before.containers);
  oldInits.forEach((was, i) => {
    if (isSidecar(was)) errs.push(...containerResizeErrors(inits[i], was, `spec.initContainers[${i}].resources`));
  });
  oldContainers.forEach((was, i) => errs.push(...containerResizeErrors(containers[i], was, `spec.containers[${i}].resources`)));
  oldContainers.forEach((was, i) => {
    if (changedBeyondCpuMemory(containers[i], was)) errs.push(fieldForbidden('spec', ONLY_CPU_MEMORY));
  });
  inits.forEach((c, i) => {
    if (isSidecar(c)) {
      if (changedBeyondCpuMemory(c, oldInits[i])) errs.push(fieldForbidden('spec', 'only cpu and memory resources for sidecar containers are mutable'));
    } else if (containerChanged(c, oldInits[i])) {
      errs.push(fieldForbidden('spec', 'resources for non-sidecar init containers are immutable'));
    }
  });
  return errs;
}

/**
 * kube's isPodResizeRequestSupported: a node that reports a running container's resources supports resize; with no
 * running container it cannot be told, and is assumed to.
 */
function nodeCanResize(pod: KubeObject): boolean {
  const statuses = asObjects(isObj(pod.status) ? pod.status.containerStatuses : undefined);
  const running = statuses.find((s) => isObj(s.state) && s.state.running !== undefined && s.state.running !== null);
  return !running || (running.resources !== undefined && running.resources !== null);
}
