import {
  asObjects,
  fieldDuplicate,
  fieldForbidden,
  fieldInternal,
  fieldInvalid,
  GoValue,
  goQuote,
  isDNS1123Subdomain,
  isLabelKey,
  isObj,
  str,
  type FieldError,
  type KubeObject,
  type Obj,
} from '@kapi/apimachinery';
import { isIP } from 'node:net';
import { APPARMOR_CONTAINER, MIRROR_POD_ANNOTATION, podAnnotationErrors } from './pod-annotations.js';
import { MAX_INT32 } from './pod-security.js';
import { INVALID_IP } from './service/special-ips.js';

// kube 1.33's pods/status update (pkg/registry/core/pod/strategy.go podStatusStrategy, and ValidatePodStatusUpdate
// in pkg/apis/core/validation/validation.go), with kube 1.33's default feature gates:
// - SupplementalGroupsPolicy (beta, on): containerStatuses[*].user is kept and checked;
// - ResourceHealthStatus (alpha, off): containerStatuses[*].allocatedResourcesStatus is dropped by PrepareForUpdate
//   (DropDisabledPodFields), so its checks (validateContainerStatusAllocatedResourcesStatus) never run and are not
//   written here;
// - DynamicResourceAllocation (beta, off): status.resourceClaimStatuses is dropped unless the pod's spec uses
//   resource claims (dynamicResourceAllocationInUse), and checked when it does.
// The server keeps the stored metadata and spec on a status write (kube resets the spec and owner references, and
// keeps labels and annotations a status write changes), so ObjectMeta's update rules are the server's; the pod's own
// annotation rules and the nodeName rule are still checked here, as kube checks them, though with the stored
// metadata and spec they cannot fail.

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);
const FIELD_IMMUTABLE = 'field is immutable';
const NOT_TERMINATED = 'may not be transitioned to non-terminated state';
const IP_FAMILIES = 'may specify no more than one IP for each IP family';

const isSet = (v: unknown) => v !== undefined && v !== null;

/**
 * What kube's podStatusStrategy.PrepareForUpdate changes of a status write that concerns its validation: a missing
 * qosClass is the stored one (old kubelets dropped it), and the fields of features off by default are dropped
 * (DropDisabledPodFields). The pod strategy's prepareForStatusUpdate.
 */
export function preparePodStatusUpdate(obj: KubeObject, old: KubeObject): void {
  if (!isObj(obj.status)) return;
  const status = obj.status;
  const before = isObj(old.status) ? old.status : {};
  if (!str(status.qosClass) && str(before.qosClass)) status.qosClass = before.qosClass;
  for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    for (const s of asObjects(status[key])) delete s.allocatedResourcesStatus;
  }
  // DynamicResourceAllocation is off by default: the claims' statuses are kept only for a pod that uses claims.
  const spec = isObj(old.spec) ? old.spec : {};
  if (!asObjects(spec.resourceClaims).length) delete status.resourceClaimStatuses;
}

/** kube's ValidatePodSpecificAnnotationUpdates: AppArmor and mirror pod annotations are neither added, changed nor removed. */
function annotationUpdateErrors(pod: KubeObject, old: KubeObject): FieldError[] {
  const field = 'metadata.annotations';
  const now = isObj(pod.metadata?.annotations) ? pod.metadata.annotations : {};
  const was = isObj(old.metadata?.annotations) ? old.metadata.annotations : {};
  const errs: FieldError[] = [];
  for (const k of Object.keys(was).sort()) {
    if (Object.hasOwn(now, k) && now[k] === was[k]) continue;
    if (k.startsWith(APPARMOR_CONTAINER)) errs.push(fieldForbidden(`${field}[${k}]`, 'may not remove or update AppArmor annotations'));
    if (k === MIRROR_POD_ANNOTATION) errs.push(fieldForbidden(`${field}[${k}]`, 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(now).sort()) {
    if (Object.hasOwn(was, k)) continue;
    if (k.startsWith(APPARMOR_CONTAINER)) errs.push(fieldForbidden(`${field}[${k}]`, 'may not add AppArmor annotations'));
    if (k === MIRROR_POD_ANNOTATION) errs.push(fieldForbidden(`${field}[${k}]`, 'may not add mirror pod annotation'));
  }
  const spec = isObj(pod.spec) ? pod.spec : {};
  const before = isObj(old.spec) ? old.spec : {};
  // A deletion cost that was already invalid may stay (kube's AllowInvalidPodDeletionCost).
  const oldCost = podAnnotationErrors(was, before, field).some((e) => e.field.endsWith('[controller.kubernetes.io/pod-deletion-cost]'));
  errs.push(...podAnnotationErrors(now, spec, field, { allowInvalidDeletionCost: oldCost }));
  return errs;
}

/**
 * kube's validatePodConditions: a condition that is not one of the system's has a qualified name as its type.
 * kube reports it at `metadata.conditions[i].Type` (its path is still `metadata` there), and so does this.
 */
function conditionErrors(conditions: unknown): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(conditions).forEach((c, i) => {
    const type = str(c.type);
    if (SYSTEM_CONDITIONS.has(type)) return;
    for (const msg of isLabelKey(type)) errs.push(fieldInvalid(`metadata.conditions[${i}].Type`, type, msg));
  });
  return errs;
}

/** A container's state has `terminated` set. */
const terminated = (s: Obj): Obj | undefined => (isObj(s.state) && isObj(s.state.terminated) ? s.state.terminated : undefined);

/**
 * kube's ValidateContainerStateTransition and ValidateInitContainerStateTransition: unless the pod restarts Always,
 * a terminated container (one that succeeded, under OnFailure; a sidecar init container never counts) stays
 * terminated. Reported at the old status's index.
 */
function stateTransitionErrors(now: unknown, was: unknown, field: string, restartPolicy: string, sidecars = new Set<string>()): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  const updated = asObjects(now);
  asObjects(was).forEach((old, i) => {
    const end = terminated(old);
    if (!end) return;
    if (Number(end.exitCode ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (sidecars.has(str(old.name))) return;
    for (const s of updated) if (str(s.name) === str(old.name) && !terminated(s)) errs.push(fieldForbidden(`${field}[${i}].state`, NOT_TERMINATED));
  });
  return errs;
}

/** The restartable (sidecar) init containers' names, as kube's isRestartableInitContainer finds the first of a name. */
function sidecarNames(spec: Obj): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  for (const c of asObjects(spec.initContainers)) {
    const name = str(c.name);
    if (seen.has(name)) continue;
    seen.add(name);
    if (c.restartPolicy === 'Always') names.add(name);
  }
  return names;
}

/** kube's validatePodResourceClaimStatuses. */
function resourceClaimStatusErrors(statuses: unknown, spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const claims = new Set(asObjects(spec.resourceClaims).map((c) => str(c.name)));
  const names = new Set<string>();
  asObjects(statuses).forEach((s, i) => {
    const at = `status.resourceClaimStatuses[${i}].name`;
    const name = str(s.name);
    if (!claims.has(name)) errs.push(fieldInvalid(at, name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (names.has(name)) errs.push(fieldDuplicate(at, name));
    else names.add(name);
    // kube reports a bad claim name at `.name` too.
    if (isSet(s.resourceClaimName)) for (const msg of isDNS1123Subdomain(str(s.resourceClaimName))) errs.push(fieldInvalid(at, str(s.resourceClaimName), msg));
  });
  return errs;
}

/** Go's net.ParseIP as netutils.ParseIPSloppy extends it (IPv4 parts with leading zeros). */
function parseIPSloppy(ip: string): 4 | 6 | undefined {
  if (isIP(ip) === 6) return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? 4 : 6;
  if (isIP(ip) === 4) return 4;
  const parts = ip.split('.');
  if (parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return 4;
  return undefined;
}

/** Go's `%#v` of a []core.PodIP or []core.HostIP, and of one of them. */
const goIP = (type: string, ip: Obj) => `core.${type}{IP:${goQuote(str(ip.ip))}}`;
const goIPs = (type: string, ips: Obj[]) => `[]core.${type}{${ips.map((ip) => goIP(type, ip)).join(', ')}}`;

/**
 * kube's dual-stack rules for a list of IPs (netutils.IsDualStackIPStrings): more than one only as one of each
 * family; an unparsable one is kube's InternalError too.
 */
function familyErrors(ips: Obj[], field: string, type: string): FieldError[] {
  const errs: FieldError[] = [];
  const families = ips.map((ip) => parseIPSloppy(str(ip.ip)));
  const bad = ips.findIndex((_, i) => families[i] === undefined);
  if (bad >= 0) errs.push(fieldInternal(field, `failed to check for dual stack with error:failed to parse ${str(ips[bad].ip)} as an IP`));
  const dualStack = bad < 0 && families.includes(4) && families.includes(6);
  if (!dualStack || ips.length > 2) errs.push(fieldInvalid(field, new GoValue(goIPs(type, ips)), IP_FAMILIES));
  return errs;
}

/** kube's validatePodIPs, on podIPs as kube decodes them: status.podIP, when it is set and differs, is the only one. */
function podIPErrors(status: Obj): FieldError[] {
  const field = 'status.podIPs';
  const podIP = str(status.podIP);
  let ips = asObjects(status.podIPs);
  if (podIP && (!ips.length || str(ips[0].ip) !== podIP)) ips = [{ ip: podIP }];
  const errs: FieldError[] = [];
  ips.forEach((ip, i) => {
    if (!parseIPSloppy(str(ip.ip))) errs.push(fieldInvalid(`${field}[${i}]`, str(ip.ip), INVALID_IP));
  });
  if (ips.length > 1) {
    errs.push(...familyErrors(ips, field, 'PodIP'));
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(str(ip.ip))) errs.push(fieldDuplicate(`${field}[${i}]`, new GoValue(goIP('PodIP', ip))));
      seen.add(str(ip.ip));
    });
  }
  return errs;
}

/** kube's validateHostIPs: hostIPs[0] is hostIP, each a valid IP, none twice, one of each family. */
function hostIPErrors(status: Obj): FieldError[] {
  const field = 'status.hostIPs';
  const ips = asObjects(status.hostIPs);
  if (!ips.length) return [];
  const errs: FieldError[] = [];
  if (str(status.hostIP) !== str(ips[0].ip)) errs.push(fieldInvalid(`${field}[0].ip`, str(ips[0].ip), 'must be equal to `hostIP`'));
  ips.forEach((ip, i) => {
    if (!parseIPSloppy(str(ip.ip))) errs.push(fieldInvalid(`${field}[${i}]`, str(ip.ip), INVALID_IP));
  });
  if (ips.length > 1) {
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(str(ip.ip))) errs.push(fieldDuplicate(`${field}[${i}]`, new GoValue(goIP('HostIP', ip))));
      seen.add(str(ip.ip));
    });
    errs.push(...familyErrors(ips, field, 'HostIP'));
  }
  return errs;
}

/** kube's IsValidUserID / IsValidGroupID (an int64 from 0 to MaxInt32). */
const idErrors = (value: unknown, field: string): FieldError[] => {
  const n = typeof value === 'number' ? value : 0;
  return n < 0 || n > MAX_INT32 ? [fieldInvalid(field, n, `must be between 0 and ${MAX_INT32}, inclusive`)] : [];
};

/**
 * kube's validateContainerStatusUsers: a Windows pod's statuses have no `user.linux`, a Linux pod's have valid ids.
 * kube reports them at `<statuses>[i].linux` (without `user`), and so does this.
 */
function userErrors(statuses: unknown, field: string, spec: Obj): FieldError[] {
  const os = isObj(spec.os) ? str(spec.os.name) : 'linux';
  const errs: FieldError[] = [];
  asObjects(statuses).forEach((s, i) => {
    if (!isObj(s.user)) return;
    const linux = s.user.linux;
    const at = `${field}[${i}].linux`;
    if (os === 'windows') {
      if (isSet(linux)) errs.push(fieldForbidden(at, 'cannot be set for a windows pod'));
    } else if (os === 'linux' && isObj(linux)) {
      errs.push(...idErrors(linux.uid, `${at}.uid`), ...idErrors(linux.gid, `${at}.gid`));
      (Array.isArray(linux.supplementalGroups) ? linux.supplementalGroups : []).forEach((g, gi) => errs.push(...idErrors(g, `${at}.supplementalGroups[${gi}]`)));
    }
  });
  return errs;
}

/**
 * kube's ValidatePodStatusUpdate after the server's ObjectMeta update rules, in kube's order, of a status the pod
 * strategy's prepareForStatusUpdate ({@link preparePodStatusUpdate}, kube's PrepareForUpdate) has readied.
 */
export function validatePodStatusUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const status = isObj(pod.status) ? pod.status : {};
  const before = isObj(old.status) ? old.status : {};
  const spec = isObj(pod.spec) ? pod.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const errs = annotationUpdateErrors(pod, old);
  errs.push(...conditionErrors(status.conditions));
  if (str(spec.nodeName) !== str(oldSpec.nodeName)) errs.push(fieldForbidden('status.nodeName', 'may not be changed directly'));
  const nominated = str(status.nominatedNodeName);
  if (nominated && nominated !== str(before.nominatedNodeName)) {
    for (const msg of isDNS1123Subdomain(nominated)) errs.push(fieldInvalid('status.nominatedNodeName', nominated, msg));
  }
  if (str(status.qosClass) !== str(before.qosClass)) errs.push(fieldInvalid('status.qosClass', str(status.qosClass), FIELD_IMMUTABLE));
  const restartPolicy = str(oldSpec.restartPolicy) || 'Always';
  errs.push(...stateTransitionErrors(status.containerStatuses, before.containerStatuses, 'status.containerStatuses', restartPolicy));
  errs.push(...stateTransitionErrors(status.initContainerStatuses, before.initContainerStatuses, 'status.initContainerStatuses', restartPolicy, sidecarNames(oldSpec)));
  // The kubelet never restarts ephemeral containers: kube checks them as under RestartPolicyNever.
  errs.push(...stateTransitionErrors(status.ephemeralContainerStatuses, before.ephemeralContainerStatuses, 'status.ephemeralContainerStatuses', 'Never'));
  errs.push(...resourceClaimStatusErrors(status.resourceClaimStatuses, spec));
  errs.push(...podIPErrors(status), ...hostIPErrors(status));
  for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) errs.push(...userErrors(status[key], `status.${key}`, spec));
  return errs;
}
