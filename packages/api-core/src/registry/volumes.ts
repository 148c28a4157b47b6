import { isDeepStrictEqual } from 'node:util';
import { cloneJson, fieldForbidden, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { claimSpecErrors, claimSpecOptions } from './claim-spec.js';
import { compareQuantities } from './quantity.js';

type ClaimSpec = {
  resources?: { requests?: Record<string, unknown> } & Record<string, unknown>;
  volumeAttributesClassName?: string;
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
} & Record<string, unknown>;
type Claim = KubeObject & { spec?: ClaimSpec; status?: { phase?: string; capacity?: Record<string, unknown> } };

/** The storage class of a claim in the annotation kube still honours before `spec.storageClassName`. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** apihelper.GetPersistentVolumeClaimClass: the beta annotation, else `spec.storageClassName`, else "". */
export function claimClass(claim: KubeObject): string {
  const annotated = claim.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (annotated !== undefined) return annotated;
  return (claim as Claim).spec?.storageClassName ?? '';
}

/** The claim's `spec.resources.requests.storage`, if any. */
export const requestedStorage = (claim: KubeObject): unknown => (claim as Claim).spec?.resources?.requests?.storage;

const put = (obj: Record<string, unknown>, key: string, value: unknown) => {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
};

/**
 * validateStorageClassUpgrade: a claim whose class was only in the beta annotation may name that same class in
 * `spec.storageClassName` (the annotation, if kept, unchanged).
 */
function isStorageClassUpgrade(now: Claim, old: Claim): boolean {
  const [oldAnnotations, newAnnotations] = [old.metadata?.annotations ?? {}, now.metadata?.annotations ?? {}];
  const oldClass = oldAnnotations[BETA_STORAGE_CLASS_ANNOTATION];
  const newClass = now.spec?.storageClassName;
  return (
    oldClass !== undefined &&
    old.spec?.storageClassName === undefined &&
    newClass !== undefined &&
    newClass === oldClass &&
    (newAnnotations[BETA_STORAGE_CLASS_ANNOTATION] === undefined || newAnnotations[BETA_STORAGE_CLASS_ANNOTATION] === oldClass)
  );
}

/**
 * ValidatePersistentVolumeClaimUpdate (kube 1.33, RecoverVolumeExpansionFailure on by default): the spec never
 * changes but for a volume name set once and, while the claim is Bound, the storage it requests and its attributes
 * class; the storage request may go down again only while it stays above `status.capacity` (undoing a failed
 * expansion). Whether the expansion is allowed at all is the PersistentVolumeClaimResize admission's call.
 */
export function claimUpdateErrors(now: Claim, old: Claim): FieldError[] {
  const errs: FieldError[] = [];
  const newSpec = cloneJson(now.spec ?? {}) as ClaimSpec;
  const oldSpec = cloneJson(old.spec ?? {}) as ClaimSpec;
  // The PV controller sets the volume name once.
  if (!oldSpec.volumeName) put(oldSpec, 'volumeName', newSpec.volumeName);
  if (isStorageClassUpgrade(now, old)) {
    put(newSpec, 'storageClassName', undefined);
  } else {
    const [was, is] = [old.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? '', now.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? ''];
    if (was !== is) {
      errs.push({ type: 'FieldValueInvalid', field: `metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}`, badValue: is, message: 'field is immutable' });
    }
  }
  // The status a client sent on the main resource is not kept (kube resets it first): the stored one decides.
  const bound = old.status?.phase === 'Bound';
  if (bound && newSpec.resources?.requests) put(newSpec.resources.requests, 'storage', oldSpec.resources?.requests?.storage);
  // The attributes class is left out of the immutability check and checked apart, below.
  put(newSpec, 'volumeAttributesClassName', oldSpec.volumeAttributesClassName);
  if (!isDeepStrictEqual(newSpec, oldSpec)) {
    errs.push({ type: 'FieldValueForbidden', field: 'spec', message: 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims' });
  }
  const [newSize, oldSize] = [requestedStorage(now), requestedStorage(old)];
  if (compareQuantities(newSize, oldSize) < 0 && compareQuantities(newSize, old.status?.capacity?.storage) <= 0) {
    errs.push({ type: 'FieldValueForbidden', field: 'spec.resources.requests.storage', message: 'field can not be less than status.capacity' });
  }
  if (now.spec?.volumeMode !== old.spec?.volumeMode) {
    errs.push({ type: 'FieldValueInvalid', field: 'volumeMode', badValue: now.spec?.volumeMode ?? null, message: 'field is immutable' });
  }
  // The VolumeAttributesClass feature is off in kube 1.33: a claim that kept a class from before may not change it.
  const [was, is] = [old.spec?.volumeAttributesClassName, now.spec?.volumeAttributesClassName];
  if (was !== is) {
    errs.push(fieldForbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
    if (was !== undefined && is === undefined) errs.push(fieldForbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}

/**
 * kube 1.33's pvcutil.DropDisabledFields, with the VolumeAttributesClass feature off (its default until 1.34): a new
 * claim, or an update of one that had none, loses `spec.volumeAttributesClassName`.
 */
function dropVolumeAttributesClass(obj: Claim, old?: Claim): void {
  if (old?.spec?.volumeAttributesClassName === undefined && obj.spec) delete obj.spec.volumeAttributesClassName;
}

/**
 * PersistentVolumeClaims (kube's pkg/registry/core/persistentvolumeclaim): a new claim starts Pending; kube's spec
 * validation, and its update rules; `volumeAttributesClassName` dropped while its feature is off, as in kube 1.33.
 */
export const persistentVolumeClaimStrategy: Strategy = {
  prepareForCreate: (obj) => {
    // kube's PrepareForCreate: a new claim's status is the empty one, Pending by default.
    obj.status = { phase: 'Pending' };
    dropVolumeAttributesClass(obj as Claim);
  },
  prepareForUpdate: (obj, old) => dropVolumeAttributesClass(obj as Claim, old as Claim),
  validate: (obj) => claimSpecErrors((obj as Claim).spec, 'spec'),
  validateUpdate: (obj, old, ctx) =>
    ctx.subresource ? [] : [...claimSpecErrors((obj as Claim).spec, 'spec', claimSpecOptions(old)), ...claimUpdateErrors(obj as Claim, old as Claim)],
};
