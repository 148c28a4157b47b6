import { newBadRequest, newConflict, newInvalid, newNotFound, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { isStorageError } from '@kapi/storage';
import { CorruptObjectError, decodeFromStorage, encodeForStorage } from './codec.js';
import { fromStorageError, groupResource, OPTIMISTIC_LOCK_MESSAGE } from './errors.js';
import { metaOf, nowTimestamp } from './object-meta.js';
import { objectKey } from './resources.js';
import type { RequestContext, Store } from './store.js';

/** The parts of metav1.DeleteOptions the Store acts on. */
export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  /** Unsafe removal of an object that cannot be read from storage (AllowUnsafeMalformedObjectDeletion). */
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export interface DeleteResult {
  obj: KubeObject;
  /** True when the object is gone; false when it is held back by finalizers (deletionTimestamp set). */
  removed: boolean;
}

const MAX_CAS_RETRIES = 16;

function checkPreconditions(ctx: RequestContext, name: string, current: KubeObject, options: DeleteOptions) {
  const meta = metaOf(current);
  const pre = options.preconditions ?? {};
  if (pre.uid && pre.uid !== meta.uid) {
    throw newConflict(groupResource(ctx.entry), name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    throw newConflict(groupResource(ctx.entry), name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`);
  }
}

/**
 * Two-phase deletion (spec "States and transitions"): an object with finalizers (or one its strategy holds back)
 * gets deletionTimestamp on the first delete and stays until the last finalizer is removed; later deletes leave
 * it as it is. Anything else is removed at once.
 */
export async function deleteObject(store: Store, ctx: RequestContext, name: string, options: DeleteOptions = {}): Promise<DeleteResult> {
  const { entry } = ctx;
  const { storage, admission, onWrite } = store.deps;
  const key = objectKey(entry, ctx.namespace, name);
  for (let attempt = 0; attempt < MAX_CAS_RETRIES; attempt++) {
    const kv = await store.read(ctx, name);
    if (!kv) throw newNotFound(groupResource(entry), name);
    const current = decodeFromStorage(kv);
    checkPreconditions(ctx, name, current, options);
    await admission.validate({
      operation: 'DELETE', resource: entry.info, subresource: ctx.subresource, namespace: ctx.namespace, name,
      oldObject: current, user: ctx.user, dryRun: ctx.dryRun,
    });
    const meta = metaOf(current);
    const held = !!(meta.finalizers as unknown[] | undefined)?.length || !!entry.strategy.deletionPending?.(current);
    if (held) {
      if (meta.deletionTimestamp) return { obj: current, removed: false };
      const obj = structuredClone(current);
      const objMeta = metaOf(obj);
      objMeta.deletionTimestamp = nowTimestamp();
      objMeta.deletionGracePeriodSeconds = 0;
      entry.strategy.prepareForDelete?.(obj);
      if (ctx.dryRun) return { obj, removed: false };
      try {
        const stored = decodeFromStorage(await storage.update(key, encodeForStorage(obj), kv.modRevision));
        onWrite?.(entry, 'MODIFIED', stored);
        return { obj: stored, removed: false };
      } catch (err) {
        if (isStorageError(err, 'Conflict')) continue;
        throw fromStorageError(entry, name, err);
      }
    }
    if (ctx.dryRun) return { obj: current, removed: true };
    try {
      const deleted = await storage.delete(key, kv.modRevision);
      const gone = { ...current, metadata: { ...meta, resourceVersion: String(deleted.modRevision) } };
      onWrite?.(entry, 'DELETED', gone);
      return { obj: gone, removed: true };
    } catch (err) {
      if (isStorageError(err, 'Conflict')) continue;
      throw fromStorageError(entry, name, err);
    }
  }
  throw newConflict(groupResource(entry), name, OPTIMISTIC_LOCK_MESSAGE);
}

const UNSAFE = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/**
 * Forced deletion of a corrupt object (spec "Forced deletion"): only with the AllowUnsafeMalformedObjectDeletion
 * gate, only without the other delete options, and only when the object really cannot be read; it then goes
 * from storage directly, ignoring finalizers and preconditions.
 */
export async function unsafeDeleteCorrupt(
  store: Store,
  ctx: RequestContext,
  name: string,
  options: DeleteOptions & { dryRunGiven?: boolean },
  gateEnabled: boolean,
): Promise<void> {
  const invalid = (type: FieldError['type'], message: string) =>
    newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', [{ type, field: UNSAFE, badValue: true, message }]);
  if (!gateEnabled) throw invalid('FieldValueForbidden', 'not allowed when the AllowUnsafeMalformedObjectDeletion feature gate is disabled');
  const others = [
    options.dryRunGiven && 'dryRun',
    options.gracePeriodSeconds !== undefined && 'gracePeriodSeconds',
    options.orphanDependents !== undefined && 'orphanDependents',
    options.preconditions !== undefined && 'preconditions',
    options.propagationPolicy !== undefined && 'propagationPolicy',
  ].filter(Boolean);
  if (others.length) throw newBadRequest(`${UNSAFE}: Invalid value: true: cannot be set together with ${others.join(', ')}`);
  try {
    await store.get(ctx, name);
  } catch (err) {
    if (!(err instanceof CorruptObjectError)) throw err;
    const { storage, onWrite } = store.deps;
    try {
      await storage.delete(err.key);
    } catch (deleteErr) {
      throw fromStorageError(ctx.entry, name, deleteErr);
    }
    onWrite?.(ctx.entry, 'DELETED', { metadata: { name, namespace: ctx.namespace || undefined } });
    return;
  }
  throw newBadRequest(`${UNSAFE}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option`);
}
