import { fieldForbidden, fieldInvalid, isObj, str, type FieldError, type Obj } from '@kapi/apimachinery';
import { containersWithPath } from './pod-containers.js';
import { localDescendingPathErrors } from './pod-paths.js';
import { MAX_INT32 } from './pod-security.js';

// The annotations kube 1.33 checks on Pods and pod templates (ValidatePodSpecificAnnotations): the mirror pod's node,
// the deletion cost, and the deprecated seccomp and AppArmor annotations; and, when both an annotation and the
// security context field give a profile, that they agree (validateSeccompAnnotationsAndFields,
// validateAppArmorAnnotationsAndFieldsMatchOnCreate).

/** kube's MirrorPodAnnotationKey: the pod is a static pod's mirror. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/** The deprecated seccomp and AppArmor annotations (the container ones end with the container's name). */
export const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
export const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';
export const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/';

/** kube's GetDeletionCostFromPodAnnotations: a 32-bit integer without a plus sign or leading zeros. */
function isDeletionCost(value: string): boolean {
  // A minus sign may precede any digits (strconv.ParseInt takes leading zeros after it); otherwise 0 or no leading zero.
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -MAX_INT32 - 1 && n <= MAX_INT32;
}

/** kube's ValidateSeccompProfile for an annotation's value. */
function seccompAnnotationErrors(profile: string, field: string): FieldError[] {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return [];
  if (profile.startsWith('localhost/')) return localDescendingPathErrors(profile.slice('localhost/'.length), field);
  return [fieldInvalid(field, profile, 'must be a valid seccomp profile')];
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
  if (MIRROR_POD_ANNOTATION in annotations && !str(spec.nodeName)) {
    errs.push(fieldInvalid(`${field}[${MIRROR_POD_ANNOTATION}]`, value(MIRROR_POD_ANNOTATION), 'must set spec.nodeName if mirror pod annotation is set'));
  }
  if (!options.allowInvalidDeletionCost && DELETION_COST in annotations && !isDeletionCost(value(DELETION_COST))) {
    errs.push(fieldInvalid(`${field}[${DELETION_COST}]`, value(DELETION_COST), 'must be a 32bit integer'));
  }
  const keys = Object.keys(annotations).sort();
  if (SECCOMP_POD in annotations) errs.push(...seccompAnnotationErrors(value(SECCOMP_POD), `${field}.${SECCOMP_POD}`));
  for (const key of keys) if (key.startsWith(SECCOMP_CONTAINER)) errs.push(...seccompAnnotationErrors(value(key), `${field}.${key}`));
  const names = new Set(containersWithPath(spec, '').map(([c]) => str(c.name)));
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

/** The annotation values of a profile type (Unconfined, RuntimeDefault; Localhost is `localhost/<profile>`). */
const ANNOTATION_VALUES = {
  seccomp: { Unconfined: ['unconfined'], RuntimeDefault: ['runtime/default', 'docker/default'] },
  apparmor: { Unconfined: ['unconfined'], RuntimeDefault: ['runtime/default'] },
} as const;

/**
 * kube's validateSeccompAnnotationsAndFieldsMatch and its AppArmor counterpart: the annotation names the profile the
 * field gives (`field` is the profile's path).
 */
function profileMatchError(kind: 'seccomp' | 'apparmor', annotation: string, profile: Obj, field: string): FieldError | undefined {
  const type = str(profile.type);
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return fieldForbidden(`${field}.type`, `${kind} type in annotation and field must match`);
    const same = profile.localhostProfile !== undefined && annotation.slice('localhost/'.length) === str(profile.localhostProfile);
    return same ? undefined : fieldForbidden(`${field}.localhostProfile`, `${kind} profile in annotation and field must match`);
  }
  const accepted: readonly string[] | undefined = ANNOTATION_VALUES[kind][type as 'Unconfined' | 'RuntimeDefault'];
  return !accepted || accepted.includes(annotation) ? undefined : fieldForbidden(`${field}.type`, `${kind} type in annotation and field must match`);
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
    push(profileMatchError('seccomp', annotations[SECCOMP_POD], podSc.seccompProfile, `${specField}.securityContext.seccompProfile`));
  }
  const containers = containersWithPath(spec, specField);
  for (const [c, at] of containers) {
    const sc = isObj(c.securityContext) ? c.securityContext : {};
    const key = `${SECCOMP_CONTAINER}${str(c.name)}`;
    if (isObj(sc.seccompProfile) && typeof annotations[key] === 'string') push(profileMatchError('seccomp', annotations[key], sc.seccompProfile, `${at}.securityContext.seccompProfile`));
  }
  if (isObj(spec.os) && spec.os.name === 'windows') return errs;
  for (const [c, at] of containers) {
    const sc = isObj(c.securityContext) ? c.securityContext : {};
    const profile = isObj(sc.appArmorProfile) ? sc.appArmorProfile : isObj(podSc.appArmorProfile) ? podSc.appArmorProfile : undefined;
    const key = `${APPARMOR_CONTAINER}${str(c.name)}`;
    if (profile && typeof annotations[key] === 'string') push(profileMatchError('apparmor', annotations[key], profile, `${at}.securityContext.appArmorProfile`));
  }
  return errs;
}
