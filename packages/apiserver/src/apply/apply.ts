// Server-side apply (FieldManager.Apply over merge.Updater.Apply): merge the applied configuration into the live
// object, prune what this applier owned before and no longer sends (unless someone else owns it), detect conflicts
// with other managers, and record the applier's fields.
import { cloneJson, dropNulls, newBadRequest, type ManagedFieldsEntry } from '@kapi/apimachinery';
import { capUpdateManagers } from './cap-managers.js';
import { ApplyConflictError } from './conflicts.js';
import { ensureNamedFieldsAreMembers } from './ensure-named.js';
import { difference, EMPTY_SET, intersection, isEmpty, isSubset, union, type FieldSet } from './field-set.js';
import { typedObjectError } from './invalid.js';
import { isObject } from './list-items.js';
import { decodeManagedFields, encodeManagedFields, managerIdentifier, ManagedFieldsError, type ManagedSet, type Managers } from './managers.js';
import { mergeObjects } from './merge.js';
import { filterReset, reassignSteps } from './ownership.js';
import { valuesEqual } from './path-element.js';
import { removeFields } from './remove.js';
import { STRIP_SET, toResetSet, type ResetFieldsInput } from './reset-fields.js';
import { resolveSchema, type Schema, type SchemaInput } from './schema.js';
import { rawFieldSet } from './to-field-set.js';
import { BUILTIN_CREATE_BASE, trackUpdate, withoutMissingVersions } from './update.js';
import { drive, Versions, type Steps, type VersionConverter } from './versions.js';
import { validateTyped } from './validate.js';

export interface ApplyInput {
  /** The stored object; undefined when the apply creates it. Not changed. */
  live: unknown;
  /** The applied configuration (the request body, decoded). Not changed. */
  applied: unknown;
  /** Field manager (`fieldManager`, required by kube for apply; `unknown` when empty). */
  manager: string;
  /** The apiVersion of the request (`apps/v1`); the configuration must use it. */
  apiVersion: string;
  force: boolean;
  meta: SchemaInput;
  subresource?: string;
  /** RFC 3339 time of the request. */
  now: string;
  resetFields?: ResetFieldsInput;
  /** The zero object "before-first-apply" ownership is computed from (see BUILTIN_CREATE_BASE). */
  createBase?: unknown;
}

export interface ApplyResult {
  /** The object to store, with `metadata.managedFields` set (left out when empty). */
  object: Record<string, unknown>;
  managedFields: ManagedFieldsEntry[];
  /** False when the apply changed no field of the object (only, possibly, the managed fields). */
  changed: boolean;
}

const metadataOf = (obj: unknown): Record<string, unknown> | undefined =>
  isObject(obj) && isObject(obj.metadata) ? obj.metadata : undefined;

function withManagedFields(obj: Record<string, unknown>, entries: ManagedFieldsEntry[]): Record<string, unknown> {
  const { managedFields: _drop, ...metadata } = metadataOf(obj) ?? {};
  if (entries.length) metadata.managedFields = entries;
  return { ...obj, metadata };
}

/**
 * Removes what the applier owned last time and no longer applies, unless another manager (or its new configuration)
 * owns it; unowned fields it did not own are left alone (merge.Updater.prune). The removal is made in the version
 * the applier last applied in, and owned items are added back in each manager's version (addBackOwnedItems).
 */
export function* prune(v: Versions, merged: unknown, managers: Managers, last: ManagedSet | undefined): Steps<unknown> {
  if (!last || isEmpty(last.set)) return merged;
  const lastVersion = v.of(last.apiVersion);
  const lv = v.view(lastVersion);
  const mergedLast = lv && (yield* v.convert([merged], v.request, lastVersion));
  if (!lv || !mergedLast) return merged;
  const s = lv.schema;
  const named = (sc: Schema, set: FieldSet) => ensureNamedFieldsAreMembers(sc, set);
  const lastSet = named(s, last.set);
  let pruned: unknown = removeFields(s, mergedLast[0], lastSet) ?? {};
  // Owned items back, by version: the pruned version first (a conversion may need what was pruned).
  const managedAt = new Map<string, FieldSet>([[lastVersion, EMPTY_SET]]);
  for (const m of managers.values()) managedAt.set(v.of(m.apiVersion), union(managedAt.get(v.of(m.apiVersion)) ?? EMPTY_SET, m.set));
  let at = lastVersion;
  let mergedAt = mergedLast[0];
  for (const [version, managed] of managedAt) {
    const view = v.view(version);
    const both = view && (yield* v.convert([mergedAt, pruned], at, version));
    if (!view || !both) continue;
    [mergedAt, pruned] = both;
    at = version;
    const vs = view.schema;
    const mergedSet = named(vs, rawFieldSet(vs, mergedAt));
    pruned = removeFields(vs, mergedAt, difference(mergedSet, union(named(vs, rawFieldSet(vs, pruned)), named(vs, managed)))) ?? {};
  }
  // Dangling items: what is gone that the applier did not own last time comes back (addBackDanglingItems).
  const prunedLast = yield* v.convert([pruned], at, lastVersion);
  if (!prunedLast) return yield* back(v, mergedLast[0], lastVersion);
  const mergedSet = named(s, rawFieldSet(s, mergedLast[0]));
  const dangling = intersection(difference(mergedSet, named(s, rawFieldSet(s, prunedLast[0]))), lastSet);
  return yield* back(v, removeFields(s, mergedLast[0], dangling) ?? {}, lastVersion);
}

/**
 * Whether {@link prune} can remove nothing, so the merged object is the answer without its walks: the applier applies
 * again every field it owned last time, in the same version, and every manager's fields are compared in that version.
 * The first removal then takes out only items of `last`, each of them owned now by the new configuration, so adding
 * back owned items restores each (an item's ancestors in the configuration are its members too); and no field of
 * `last` is missing from the result, so nothing dangles. Held to {@link prune} by prune.test.ts.
 */
export function prunesNothing(v: Versions, managers: Managers, last: ManagedSet | undefined, applied: FieldSet): boolean {
  if (!last || isEmpty(last.set)) return true;
  if (v.of(last.apiVersion) !== v.request) return false;
  for (const m of managers.values()) if (v.of(m.apiVersion) !== v.request) return false;
  return isSubset(last.set, applied);
}

/** An object of `from` in the request's version. */
function* back(v: Versions, obj: unknown, from: string): Steps<unknown> {
  const converted = yield* v.convert([obj], from, v.request);
  if (!converted) throw new Error(`failed to convert the pruned object to ${v.request}`);
  return converted[0];
}

/**
 * Applies `applied` over `live` for `manager`. Throws {@link ApplyConflictError} (409) on conflicts when not forced,
 * a 400 StatusError for a configuration with managedFields or another apiVersion, an ApplyInvalidError (500, kube's
 * message) for lists it cannot address (a key field missing, a repeated key), and ManagedFieldsError when the live
 * managedFields do not decode. Pure: inputs are not changed. With a `converter`, managers of other versions are
 * compared in theirs, and the answer may be a promise (a conversion's); its errors fail the apply.
 */
export function applyObject(input: ApplyInput): ApplyResult {
  return applyAcrossVersions(input) as ApplyResult;
}

/**
 * {@link applyObject} for a kind served in several versions: managers of other versions are compared in theirs,
 * reached through `converter`, and the answer is a promise when a conversion answers with one. A conversion's
 * error fails the apply (as kube's "failed to convert ..."); a missing version drops its managers.
 */
export function applyAcrossVersions(input: ApplyInput, converter?: VersionConverter): ApplyResult | Promise<ApplyResult> {
  const { applied, live } = input;
  if (!isObject(applied)) throw newBadRequest('the applied configuration must be an object');
  const appliedMeta = metadataOf(applied);
  if (appliedMeta && appliedMeta.managedFields !== undefined && appliedMeta.managedFields !== null) {
    throw newBadRequest('metadata.managedFields must be nil');
  }
  if (applied.apiVersion !== input.apiVersion) {
    throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${String(applied.apiVersion ?? '')}, expected: ${input.apiVersion}`);
  }
  const s = resolveSchema(input.meta);
  const reset = toResetSet(input.resetFields);
  const config = appliedMeta && 'managedFields' in appliedMeta ? withManagedFields(applied, []) : applied;

  let managers: Managers;
  try {
    managers = decodeManagedFields(metadataOf(live)?.managedFields as ManagedFieldsEntry[] | undefined);
  } catch (err) {
    throw new ManagedFieldsError(`failed to decode managed fields: ${(err as Error).message}`);
  }
  const base: Record<string, unknown> = isObject(live) ? withManagedFields(live, []) : {};

  const configErrors = validateTyped(config, s, false);
  if (configErrors.length) throw typedObjectError('patch', config, configErrors);
  const liveErrors = validateTyped(base, s, true);
  if (liveErrors.length) throw typedObjectError('live', base, liveErrors);

  // An object nobody tracked yet: its current fields belong to "before-first-apply" (skipNonAppliedManager).
  if (isObject(live) && managers.size === 0) {
    managers = trackUpdate({
      schema: s, managers, old: input.createBase ?? BUILTIN_CREATE_BASE, updated: base, manager: 'before-first-apply',
      apiVersion: input.apiVersion, subresource: input.subresource, now: input.now, reset,
    });
  }
  const v = new Versions(input.apiVersion, { schema: s, reset }, converter);
  // What a create starts from is nothing, in every version.
  if (!isObject(live)) v.same(base);
  managers = withoutMissingVersions(v, managers);
  return drive(applySteps(v, input, config, base, managers), converter);
}

function* applySteps(v: Versions, input: ApplyInput, config: Record<string, unknown>, base: Record<string, unknown>, managers: Managers): Steps<ApplyResult> {
  const { schema: s, reset } = v.view(v.request)!;
  const info = { manager: input.manager || 'unknown', operation: 'Apply' as const, apiVersion: input.apiVersion, ...(input.subresource ? { subresource: input.subresource } : {}) };
  const id = managerIdentifier(info);
  // An applier has one entry whatever the version it applies in: the new one replaces it, in the request's version.
  const previous = managers.get(id);
  const appliedSet = filterReset(rawFieldSet(s, config), reset);
  const withApplier: Managers = new Map(managers);
  const entry: ManagedSet = { ...info, set: appliedSet };
  if (previous?.time) entry.time = previous.time;
  withApplier.set(id, entry);

  let merged: unknown = mergeObjects(s, base, config) ?? {};
  if (!prunesNothing(v, withApplier, previous, appliedSet)) merged = yield* prune(v, merged, withApplier, previous);

  const result = yield* reassignSteps(v, withApplier, base, merged, id, input.force);
  if (result.conflicts.length) throw new ApplyConflictError(result.conflicts);
  const out: Managers = new Map(result.managers);
  const mine = out.get(id);
  if (mine) {
    const stripped = difference(mine.set, STRIP_SET);
    if (isEmpty(stripped)) out.delete(id);
    else out.set(id, { ...mine, set: stripped });
  }
  // A null the configuration sets (at any depth, list items' fields too) leaves the field unset, as kube's typed
  // objects drop nil fields; the live object holds none.
  merged = dropNulls(merged);
  const changed = !valuesEqual(base, merged);
  if (changed && out.has(id)) out.set(id, { ...out.get(id)!, time: input.now });

  const managedFields = encodeManagedFields(capUpdateManagers(out));
  // A fresh object, which the caller is free to mutate: dropNulls copied the merged one whole (the merge shares
  // untouched subtrees with the inputs); the live one, unchanged, is copied here.
  const object = withManagedFields(changed ? (merged as Record<string, unknown>) : cloneJson(base), managedFields);
  return { object, managedFields: (metadataOf(object)?.managedFields as ManagedFieldsEntry[] | undefined) ?? [], changed };
}
