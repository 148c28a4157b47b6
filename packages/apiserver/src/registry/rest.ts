import { randomUUID } from 'node:crypto';
import { cloneJson, newBadRequest, orderKeys, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { specChanged } from './diff.js';
import { generateName } from './names.js';
import { dropEmptyMetadata, metaOf, nowTimestamp, sameTime, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { apiVersionOf, type ResourceEntry } from './resources.js';
import { addWarnings, type RequestContext } from './context.js';
import { throwIfInvalid } from './validation.js';
import type { WriteFinisher } from '../plugin.js';
import type { DeleteOptions } from './delete.js';

/**
 * The steps every write takes around a kind's strategy, in one fixed order (k8s.io/apiserver rest.BeforeCreate,
 * BeforeUpdate, BeforeDelete). The Store calls them after mutating admission and before validating admission:
 *
 *   create: type and namespace → system fields → strategy.prepareForCreate → generated name → validate (metadata,
 *           schema, strategy.validate) → strategy.canonicalize → strategy.warnings; strategy.beginCreate just
 *           before the write (beginUpdate for updates)
 *   update: type and namespace → carried-over fields (per subresource) → strategy.prepareForUpdate → generation →
 *           validate (metadata, schema, strategy.validateUpdate) → strategy.canonicalize → strategy.warnings
 *   delete: strategy.deletionPending / finalizers → deletionTimestamp → strategy.prepareForDelete
 */

const hasStatusSubresource = (entry: ResourceEntry) => !!entry.info.subresources.status;
/** Whether objects of the kind carry metadata.generation: kinds with a spec, unless the strategy says. */
const tracksGeneration = (entry: ResourceEntry) =>
  entry.strategy.tracksGeneration ?? 'spec' in (entry.group.fieldTree.types[entry.typeKey]?.props ?? {});

/**
 * Sets the type and namespace the URL implies, and checks that the body agrees with them (kube's
 * EnsureObjectNamespaceMatchesRequestNamespace): run before admission, so plugins see where the object goes.
 */
export function stampTypeAndNamespace(ctx: RequestContext, obj: KubeObject): void {
  const { info } = ctx.entry;
  const meta = metaOf(obj);
  if (info.scope === 'Namespaced') {
    if (meta.namespace && ctx.namespace && meta.namespace !== ctx.namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = ctx.namespace || meta.namespace;
  } else {
    delete meta.namespace;
  }
  obj.apiVersion = apiVersionOf(info);
  obj.kind = info.kind;
}

/**
 * A new object's status is the kind's empty one (kube's PrepareForCreate: `status = DeploymentStatus{}`, which Go
 * writes as `status: {}`): the schema's default for `status` when it has one, else none.
 */
function resetStatus(entry: ResourceEntry, obj: KubeObject): void {
  const initial = entry.group.fieldTree.types[entry.typeKey]?.defaults?.status;
  if (initial === undefined) delete obj.status;
  else obj.status = cloneJson(initial);
}

/** Prepares, names, validates and canonicalizes an object about to be created (mutates `obj`). */
export function beforeCreate(ctx: RequestContext, obj: KubeObject): void {
  const { entry } = ctx;
  stampTypeAndNamespace(ctx, obj);
  const meta = metaOf(obj);
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  delete meta.selfLink;
  if (tracksGeneration(entry)) meta.generation = 1;
  else delete meta.generation;
  if (hasStatusSubresource(entry) && !entry.strategy.prepareForCreate) resetStatus(entry, obj);
  entry.strategy.prepareForCreate?.(obj, ctx);
  if (!meta.name && meta.generateName) meta.name = generateName(String(meta.generateName));
  dropEmptyMetadata(obj);
  const schemaErrors = schemaErrorsOf(entry, obj);
  const found = [...validateObjectMeta(entry, obj), ...schemaErrors];
  throwIfInvalid(entry, obj, [...found, ...(entry.strategy.validate?.(obj, found) ?? [])], schemaErrors);
  entry.strategy.canonicalize?.(obj);
  orderKeys(entry.group.fieldTree, entry.typeKey, obj);
  addWarnings(ctx.warnings, entry.strategy.warnings?.(obj, undefined, ctx));
}

/** The strategy's writer of a subresource that is a part of the object (Strategy.subresourceUpdates), if it has one. */
export function subresourceUpdate(entry: ResourceEntry, subresource: string): ((obj: KubeObject, old: KubeObject) => KubeObject) | undefined {
  const updates = entry.strategy.subresourceUpdates;
  return subresource && updates && Object.hasOwn(updates, subresource) ? updates[subresource] : undefined;
}

/**
 * The object an update stores, from what the client (and mutating admission) gave and the stored object: system
 * fields carried over, status or spec kept per subresource, the strategy's preparation, generation bumped when
 * anything but metadata (and status, for kinds with its subresource) changed; then validated and canonicalized. Returns the object to store.
 */
export function beforeUpdate(ctx: RequestContext, input: KubeObject, old: KubeObject): KubeObject {
  const { entry } = ctx;
  let obj = input;
  stampTypeAndNamespace(ctx, obj);
  const oldMeta = metaOf(old);
  if (ctx.subresource === 'status') {
    // The managedFields were updated to record the status write: kept, as kube's status strategies keep them.
    const managedFields = metaOf(obj).managedFields;
    obj = { ...cloneJson(old), status: obj.status };
    if (managedFields !== undefined) metaOf(obj).managedFields = managedFields;
  } else if (ctx.subresource === 'finalize') {
    const finalizers = (obj.spec as { finalizers?: string[] } | undefined)?.finalizers;
    obj = cloneJson(old);
    obj.spec = { ...(obj.spec as object), finalizers };
    if (!finalizers) delete (obj.spec as { finalizers?: string[] }).finalizers;
  } else if (subresourceUpdate(entry, ctx.subresource)) {
    // As for status: the managedFields recording this write are kept.
    const managedFields = metaOf(obj).managedFields;
    obj = subresourceUpdate(entry, ctx.subresource)!(obj, old);
    if (managedFields !== undefined) metaOf(obj).managedFields = managedFields;
  } else if (hasStatusSubresource(entry) && ctx.subresource === '') {
    if (old.status === undefined) delete obj.status;
    else obj.status = cloneJson(old.status);
  }
  const meta = metaOf(obj);
  meta.uid ||= oldMeta.uid;
  // Left out, or the same instant in another form: the stored text stays (a different time is refused below).
  if (!meta.creationTimestamp || sameTime(meta.creationTimestamp, oldMeta.creationTimestamp)) meta.creationTimestamp = oldMeta.creationTimestamp;
  for (const f of ['deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const) {
    if (oldMeta[f] === undefined) delete meta[f];
    else meta[f] = oldMeta[f];
  }
  delete meta.selfLink;
  if (ctx.subresource === '') entry.strategy.prepareForUpdate?.(obj, old, ctx);
  else if (ctx.subresource === 'status') entry.strategy.prepareForStatusUpdate?.(obj, old, ctx);
  if (meta.generation !== undefined && specChanged(obj, old, hasStatusSubresource(entry))) meta.generation = Number(meta.generation) + 1;
  dropEmptyMetadata(obj);
  const schemaErrors = schemaErrorsOf(entry, obj, old);
  const found = [...validateObjectMeta(entry, obj), ...validateObjectMetaUpdate(obj, old), ...schemaErrors];
  throwIfInvalid(entry, obj, [...found, ...(entry.strategy.validateUpdate?.(obj, old, ctx, found) ?? entry.strategy.validate?.(obj, found) ?? [])], schemaErrors);
  entry.strategy.canonicalize?.(obj);
  orderKeys(entry.group.fieldTree, entry.typeKey, obj);
  addWarnings(ctx.warnings, entry.strategy.warnings?.(obj, old, ctx));
  return obj;
}

/** The strategy's beginCreate, its changes put in kube's field order; what settles it once the write is done. */
export async function beginCreate(ctx: RequestContext, obj: KubeObject): Promise<WriteFinisher | undefined> {
  const { entry } = ctx;
  if (!entry.strategy.beginCreate) return undefined;
  const finish = (await entry.strategy.beginCreate(obj, ctx)) ?? undefined;
  orderKeys(entry.group.fieldTree, entry.typeKey, obj);
  return finish;
}

/** The strategy's beginUpdate, as {@link beginCreate}. */
export async function beginUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject): Promise<WriteFinisher | undefined> {
  const { entry } = ctx;
  if (!entry.strategy.beginUpdate) return undefined;
  const finish = (await entry.strategy.beginUpdate(obj, old, ctx)) ?? undefined;
  orderKeys(entry.group.fieldTree, entry.typeKey, obj);
  return finish;
}

/** The strategy's afterDelete, once `obj` is gone from storage (a dry run removed nothing). */
export async function afterDelete(ctx: RequestContext, obj: KubeObject): Promise<void> {
  if (!ctx.dryRun) await ctx.entry.strategy.afterDelete?.(obj, ctx);
}

/**
 * What a delete does to a stored object (kube API concepts, "States and transitions"): an object with finalizers (or one its
 * strategy holds back) is kept, with deletionTimestamp set on the first delete; anything else is removed. With a
 * garbage collector running, the delete's propagation policy first sets or clears the collector's finalizers
 * (gcFinalizers). Returns the object to keep (the stored one itself when nothing changes), or undefined to remove it.
 */
export function beforeDelete(ctx: RequestContext, current: KubeObject, options: DeleteOptions = {}, garbageCollection = false): KubeObject | undefined {
  const { entry } = ctx;
  const meta = metaOf(current);
  const had = (meta.finalizers as string[] | undefined) ?? [];
  const finalizers = garbageCollection ? gcFinalizers(had, options) : had;
  const changed = finalizers.length !== had.length || finalizers.some((f) => !had.includes(f));
  const held = finalizers.length > 0 || !!entry.strategy.deletionPending?.(current);
  if (!held) return undefined;
  if (meta.deletionTimestamp && !changed) return current;
  const obj = cloneJson(current);
  const objMeta = metaOf(obj);
  if (changed) objMeta.finalizers = finalizers;
  if (!objMeta.deletionTimestamp) {
    objMeta.deletionTimestamp = nowTimestamp();
    objMeta.deletionGracePeriodSeconds = 0;
    entry.strategy.prepareForDelete?.(obj);
  }
  return obj;
}

/** The garbage collector's finalizers (metav1.FinalizerOrphanDependents, FinalizerDeleteDependents). */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * kube's deletionFinalizersForGarbageCollection: the object's finalizers with `orphan` when the delete orphans its
 * dependents (orphanDependents, or propagationPolicy Orphan, or an `orphan` finalizer already there and no policy
 * given) and `foregroundDeletion` when it deletes them first (propagationPolicy Foreground, or that finalizer already
 * there and no policy given). Background removes both.
 */
export function gcFinalizers(finalizers: readonly string[], options: DeleteOptions): string[] {
  const policy = options.propagationPolicy;
  const orphan =
    options.orphanDependents !== undefined ? options.orphanDependents
    : policy === 'Orphan' ? true
    : policy === 'Background' || policy === 'Foreground' ? false
    : finalizers.includes(ORPHAN_FINALIZER);
  const foreground =
    options.orphanDependents !== undefined ? false
    : policy === 'Foreground' ? true
    : policy === 'Background' || policy === 'Orphan' ? false
    : finalizers.includes(FOREGROUND_FINALIZER);
  const out = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) out.push(ORPHAN_FINALIZER);
  if (foreground) out.push(FOREGROUND_FINALIZER);
  return out;
}

/** Whether an update leaves an object with deletionTimestamp and nothing holding it: it is then removed. */
export function finalized(entry: ResourceEntry, obj: KubeObject): boolean {
  const meta = metaOf(obj);
  return !!meta.deletionTimestamp && !(meta.finalizers as unknown[] | undefined)?.length && !entry.strategy.deletionPending?.(obj);
}

/** The kind's schema validation of `obj`, without the `required` lists' errors where its strategy checks them itself. */
function schemaErrorsOf(entry: ResourceEntry, obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = entry.validate(obj, old);
  if (entry.strategy.schemaRequired === false) return errors.filter((e) => e.type !== 'FieldValueRequired');
  if (!errors.some((e) => e.type === 'FieldValueRequired')) return errors;
  // Inside a type its group validates wholly, a missing field is that validation's to judge (kube decodes it as zero).
  const validated = entry.validatedPaths(obj);
  const under = (field: string) => validated.some((p) => p === '' || field.startsWith(`${p}.`) || field.startsWith(`${p}[`));
  return validated.length ? errors.filter((e) => e.type !== 'FieldValueRequired' || !under(e.field)) : errors;
}
