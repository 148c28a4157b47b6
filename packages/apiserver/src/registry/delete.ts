import { newBadRequest, newConflict, newInvalid, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { groupResource } from './errors.js';
import { metaOf } from './object-meta.js';
import type { ResourceEntry } from './resources.js';

/** The parts of metav1.DeleteOptions the Store acts on. */
export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  /** Unsafe removal of an object that cannot be read from storage (AllowUnsafeMalformedObjectDeletion). */
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
  /** Whether the request named dryRun at all (the unsafe option may not be combined with it). */
  dryRunGiven?: boolean;
}

export interface DeleteResult {
  obj: KubeObject;
  /** True when the object is gone; false when it is held back by finalizers (deletionTimestamp set). */
  removed: boolean;
}

/** kube's preconditions on delete: a uid or resourceVersion other than the stored one is 409. */
export function checkPreconditions(entry: ResourceEntry, name: string, current: KubeObject, options: DeleteOptions): void {
  const meta = metaOf(current);
  const pre = options.preconditions ?? {};
  if (pre.uid && pre.uid !== meta.uid) {
    throw newConflict(groupResource(entry), name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    throw newConflict(groupResource(entry), name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`);
  }
}

export const UNSAFE_DELETE = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/**
 * The rules of a forced deletion of a corrupt object (kube API concepts, "Forced deletion"): only with the
 * AllowUnsafeMalformedObjectDeletion gate, and only without the other delete options.
 */
export function validateUnsafeDelete(options: DeleteOptions, gateEnabled: boolean): void {
  const invalid = (type: FieldError['type'], message: string) =>
    newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', [{ type, field: UNSAFE_DELETE, badValue: true, message }]);
  if (!gateEnabled) throw invalid('FieldValueForbidden', 'not allowed when the AllowUnsafeMalformedObjectDeletion feature gate is disabled');
  const others = [
    options.dryRunGiven && 'dryRun',
    options.gracePeriodSeconds !== undefined && 'gracePeriodSeconds',
    options.orphanDependents !== undefined && 'orphanDependents',
    options.preconditions !== undefined && 'preconditions',
    options.propagationPolicy !== undefined && 'propagationPolicy',
  ].filter(Boolean);
  if (others.length) throw newBadRequest(`${UNSAFE_DELETE}: Invalid value: true: cannot be set together with ${others.join(', ')}`);
}

/** The answer when the object of a forced deletion turned out to be readable. */
export const readableObjectError = () =>
  newBadRequest(`${UNSAFE_DELETE}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option`);
