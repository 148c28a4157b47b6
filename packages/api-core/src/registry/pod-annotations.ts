import { fieldForbidden, fieldInvalid, isObj, str, type FieldError, type Obj } from '@kapi/apimachinery';
import { localDescendingPathErrors } from './pod-volumes.js';

// The annotations kube 1.33 checks on Pods and pod templates (ValidatePodSpecificAnnotations): the mirror pod's node,
// the deletion cost, and the deprecated seccomp and AppArmor annotations; and, when both an annotation and the
// security context field give a profile, that they agree (validateSeccompAnnotationsAndFields,
// validateAppArmorAnnotationsAndFieldsMatchOnCreate).

const MIRROR = 'kubernetes.io/config.mirror';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/';
const MAX_INT32 = 2147483647;

/** kube's GetDeletionCostFromPodAnnotations: a 32-bit integer without a plus sign or leading zeros. */
function isDeletionCost(value: string): boolean {
  if (!/^(-?[1-9][0-9]*|0|-0)$/.test(value) && !/^-0[0-9]+$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -MAX_INT32 - 1 && n <= MAX_INT32;
}

/** kube's ValidateSeccompProfile for an annotation's value. */
function seccompAnnotationErrors(profile: string, field: string): FieldError[] {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return [];
  if (profile.startsWith('localhost/')) return localDescendingPathErrors(profile.slice('localhost/'.length), field);
  return [fieldInvalid(field, profile, 'must be a valid seccomp profile')];
}

/** The names of a spec's containers of every kind. */
function containerNames(spec: Obj): Set<string> {
  const names = new Set<string>();
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = spec[kind];
    if (Array.isArray(list)) for (const c of list) if (isObj(c)) names.add(str(c.name));
  }
  return names;
}

/**
 * kube's ValidatePodSpecificAnnotations, reported under `field` (`metadata.annotations`, or a template's
 * `annotations`); keys in sorted order where kube walks a map. With `allowInvalidDeletionCost` (an update of a pod
 * whose cost was already invalid) the deletion cost is not checked.
 */
export function podAnnotationErrors(annotations: unknown, spec: Obj, field: string, options: { allowInvalidDeletionCost?: boolean } = {}): FieldError[] {
  if (!isObj(annotations)) return [];
  const errs: FieldError[] = [];
  const value = (key: string) => str(annotations[key]);
  if (MIRROR in annotations && !str(spec.nodeName)) {
    errs.push(fieldInvalid(`${field}[${MIRROR}]`, value(MIRROR), 'must set spec.nodeName if mirror pod annotation is set'));
  }
  if (!options.allowInvalidDeletionCost && DELETION_COST in annotations && !isDeletionCost(value(DELETION_COST))) {
    errs.push(fieldInvalid(`${field}[${DELETION_COST}]`, value(DELETION_COST), 'must be a 32bit integer'));
  }
  const keys = Object.keys(annotations).sort();
  if (SECCOMP_POD in annotations) errs.push(...seccompAnnotationErrors(value(SECCOMP_POD), `${field}.${SECCOMP_POD}`));
  for (const key of keys) if (key.startsWith(SECCOMP_CONTAINER)) errs.push(...seccompAnnotationErrors(value(key), `${field}.${key}`));
  const names = containerNames(spec);
  for (const key of keys) {
    if (!key.startsWith(APPARMOR_CONTAINER)) continue;
    const container = key.slice(APPARMOR_CONTAINER.length);
    if (!names.has(container)) errs.push(fieldInvalid(`${field}[${key}]`, container, 'container not found'));
    const profile = value(key);
    if (profile !== '' && profile !== 'runtime/default' && profile !== 'unconfined' && !profile.startsWith('localhost/')) {
      errs.push(fieldInvalid(`${field}[${key}]`, profile, `invalid AppArmor profile name: ${JSON.stringify(profile)}`));
    }
  }
  return errs;
}

/** kube's validateSeccompAnnotationsAndFieldsMatch: the annotation's profile is the field's. */
function seccompMatchError(annotation: string, profile: Obj, field: string): FieldError | undefined {
  const mismatch = fieldForbidden(`${field}.type`, 'seccomp type in annotation and field must match');
  switch (profile.type) {
    case 'Unconfined':
      return annotation === 'unconfined' ? undefined : mismatch;
    case 'RuntimeDefault':
      return annotation === 'runtime/default' || annotation === 'docker/default' ? undefined : mismatch;
    case 'Localhost':
      if (!annotation.startsWith('localhost/')) return mismatch;
      return annotation.slice('localhost/'.length) === str(profile.localhostProfile) && profile.localhostProfile !== undefined
        ? undefined
        : fieldForbidden(`${field}.localhostProfile`, 'seccomp profile in annotation and field must match');
    default:
      return undefined;
  }
}

/** kube's AppArmor counterpart, for a container's profile (its own, or the pod's). */
function appArmorMatchError(annotation: string, profile: Obj, field: string): FieldError | undefined {
  const mismatch = fieldForbidden(`${field}.type`, 'apparmor type in annotation and field must match');
  switch (profile.type) {
    case 'Unconfined':
      return annotation === 'unconfined' ? undefined : mismatch;
    case 'RuntimeDefault':
      return annotation === 'runtime/default' ? undefined : mismatch;
    case 'Localhost':
      if (!annotation.startsWith('localhost/')) return mismatch;
      return profile.localhostProfile !== undefined && annotation.slice('localhost/'.length) === str(profile.localhostProfile)
        ? undefined
        : fieldForbidden(`${field}.localhostProfile`, 'apparmor profile in annotation and field must match');
    default:
      return undefined;
  }
}

/**
 * kube's create-time checks that a profile given both as an annotation and as a security context field is the same:
 * the pod's seccomp profile, each container's seccomp profile, and each container's AppArmor profile (its own or the
 * pod's; not for Windows pods). `specField` is `spec`, or a template's `<field>.spec`.
 */
export function annotationFieldMatchErrors(annotations: unknown, spec: Obj, specField: string): FieldError[] {
  if (!isObj(annotations)) return [];
  const errs: FieldError[] = [];
  const podSc = isObj(spec.securityContext) ? spec.securityContext : {};
  const push = (e: FieldError | undefined) => e && errs.push(e);
  if (isObj(podSc.seccompProfile) && typeof annotations[SECCOMP_POD] === 'string') {
    push(seccompMatchError(annotations[SECCOMP_POD], podSc.seccompProfile, `${specField}.securityContext.seccompProfile`));
  }
  const containers: [Obj, string][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = spec[kind];
    if (Array.isArray(list)) list.forEach((c, i) => isObj(c) && containers.push([c, `${specField}.${kind}[${i}]`]));
  }
  for (const [c, at] of containers) {
    const sc = isObj(c.securityContext) ? c.securityContext : {};
    const key = `${SECCOMP_CONTAINER}${str(c.name)}`;
    if (isObj(sc.seccompProfile) && typeof annotations[key] === 'string') push(seccompMatchError(annotations[key], sc.seccompProfile, `${at}.securityContext.seccompProfile`));
  }
  if (isObj(spec.os) && spec.os.name === 'windows') return errs;
  for (const [c, at] of containers) {
    const sc = isObj(c.securityContext) ? c.securityContext : {};
    const profile = isObj(sc.appArmorProfile) ? sc.appArmorProfile : isObj(podSc.appArmorProfile) ? podSc.appArmorProfile : undefined;
    const key = `${APPARMOR_CONTAINER}${str(c.name)}`;
    if (profile && typeof annotations[key] === 'string') push(appArmorMatchError(annotations[key], profile, `${at}.securityContext.appArmorProfile`));
  }
  return errs;
}
