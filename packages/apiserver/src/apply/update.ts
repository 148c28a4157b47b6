// Field ownership for non-apply writes (create, update, patch): the writing manager takes every field the write
// added or changed, and other managers lose those and every field the write removed (FieldManager.Update with its
// managedFieldsUpdater, stripMeta and capManagers layers).
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { capUpdateManagers } from './cap-managers.js';
import { compareObjects, type Comparison } from './compare.js';
import { createdManagedFields, isEmptyMapsBase } from './created.js';
import { difference, isEmpty, union } from './field-set.js';
import { keptOwnership } from './kept-owners.js';
import { isObject } from './list-items.js';
import { decodeManagedFields, encodeManagedFields, managerIdentifier, type Managers } from './managers.js';
import { filterReset, reassignSteps } from './ownership.js';
import { valuesEqual } from './path-element.js';
import { STRIP_SET, toResetSet, type ResetFieldsInput } from './reset-fields.js';
import { resolveSchema, type Schema, type SchemaInput } from './schema.js';
import { validateTyped } from './validate.js';
import type { FieldSet } from './field-set.js';
import { drive, driveSync, Versions, type Steps, type VersionConverter } from './versions.js';

/**
 * What a new object of a kind looks like before a create, as kube's Go types serialize their zero value: the fields
 * present here are not "added" by a create (so `spec` gets no `.` entry). Built-in kinds: metadata, spec and status.
 * Pass `{}` for custom resources, whose managedFields show `f:spec: {".": {}}`.
 */
export const BUILTIN_CREATE_BASE: Readonly<Record<string, unknown>> = Object.freeze({ metadata: {}, spec: {}, status: {} });

export interface UpdateManagedFieldsInput {
  /** The object before the write; undefined for a create. */
  old: unknown;
  /** The object about to be stored. Its metadata.managedFields, if set, are taken as the client's (kube does). */
  updated: unknown;
  /** Field manager name (`fieldManager`, or derived from the User-Agent by the caller); `unknown` when empty. */
  manager: string;
  /** The apiVersion of the request (`apps/v1`). */
  apiVersion: string;
  operation?: 'Update';
  subresource?: string;
  meta: SchemaInput;
  /** RFC 3339 time of the write. */
  now: string;
  resetFields?: ResetFieldsInput;
  /** See {@link BUILTIN_CREATE_BASE}; the default. */
  createBase?: unknown;
}

const withoutManagedFields = (obj: unknown): unknown => {
  if (!isObject(obj) || !isObject(obj.metadata) || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _drop, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

const managedFieldsOf = (obj: unknown): ManagedFieldsEntry[] | null | undefined =>
  isObject(obj) && isObject(obj.metadata) ? (obj.metadata.managedFields as ManagedFieldsEntry[] | null | undefined) : undefined;

// `[]` or `[{}]`: the client asks to drop all managed fields.
function isReset(mf: ManagedFieldsEntry[] | null | undefined): boolean {
  if (!Array.isArray(mf)) return false;
  if (mf.length === 0) return true;
  return mf.length === 1 && isObject(mf[0]) && Object.values(mf[0]).every((v) => v === undefined || v === '' || v === null);
}

function decodeOrEmpty(mf: ManagedFieldsEntry[] | null | undefined): Managers {
  try {
    return decodeManagedFields(mf);
  } catch {
    return new Map();
  }
}

// decodeLiveOrNew: a subresource write never sets managedFields; otherwise the request's own valid, non-empty
// managedFields win, and a client that sent none (or garbage) keeps the live ones.
function startingManagers(old: unknown, updated: unknown, subresource: string | undefined): Managers {
  if (subresource) return decodeOrEmpty(managedFieldsOf(old));
  const requested = managedFieldsOf(updated);
  if (isReset(requested)) return new Map();
  try {
    const m = decodeManagedFields(requested);
    if (m.size > 0) return m;
  } catch {
    // fall back to the live object's
  }
  return decodeOrEmpty(managedFieldsOf(old));
}

/** The old object's entries when the update starts from them (startingManagers would decode them), else undefined. */
function storedStarting(input: UpdateManagedFieldsInput): ManagedFieldsEntry[] | undefined {
  const entries = managedFieldsOf(input.old);
  if (!Array.isArray(entries)) return undefined;
  const requested = managedFieldsOf(input.updated);
  return input.subresource || requested == null || valuesEqual(requested, entries) ? entries : undefined;
}

export interface TrackUpdateInput {
  schema: Schema;
  managers: Managers;
  old: unknown;
  updated: unknown;
  manager: string;
  apiVersion: string;
  subresource?: string;
  now: string;
  reset: FieldSet;
  /** `old` compared with `updated` (compareObjects, in the request's version), when the caller made it already. */
  comparison?: Comparison;
}

/** The ownership step of an Update on decoded managers (shared with apply's "before-first-apply"). */
export function* trackUpdateSteps(v: Versions, input: Omit<TrackUpdateInput, 'schema' | 'reset'>): Steps<Managers> {
  const { old, updated, now } = input;
  const actor = '\u0000current-operation';
  const { managers, comparison } = yield* reassignSteps(v, input.managers, old, updated, actor, true, input.comparison);
  let own = filterReset(union(comparison.modified, comparison.added), v.view(v.request)!.reset);
  own = difference(own, STRIP_SET);
  if (isEmpty(own)) return managers;
  const info = { manager: input.manager || 'unknown', operation: 'Update' as const, apiVersion: input.apiVersion, ...(input.subresource ? { subresource: input.subresource } : {}) };
  const id = managerIdentifier(info);
  const previous = managers.get(id);
  const out: Managers = new Map(managers);
  out.set(id, { ...info, time: now, set: previous ? union(own, previous.set) : own });
  return out;
}

/** {@link trackUpdateSteps} for a kind served in one version. */
export function trackUpdate(input: TrackUpdateInput): Managers {
  return driveSync(trackUpdateSteps(new Versions(input.apiVersion, { schema: input.schema, reset: input.reset }), input));
}

/**
 * Drops the managers of versions the kind is no longer served in (SMD's reconcileManagedFieldsWithSchemaChanges
 * skips them on IsMissingVersionError); without a converter every manager is kept.
 */
export function withoutMissingVersions(v: Versions, managers: Managers): Managers {
  if (!v.converter) return managers;
  let out: Managers | undefined;
  for (const [id, m] of managers) {
    if (m.apiVersion === v.request || v.view(m.apiVersion)) continue;
    out ??= new Map(managers);
    out.delete(id);
  }
  return out ?? managers;
}

/**
 * The managedFields an Update-type write leaves on `updated` (kube's FieldManager.UpdateNoErrors): the manager owns
 * what it added or changed relative to `old`; on a create, everything it set. An empty array means none (omit the
 * field). If the objects cannot be typed (a map-list element without its key), the old managedFields are kept.
 */
export function updateManagedFields(input: UpdateManagedFieldsInput): ManagedFieldsEntry[] {
  return updateAcrossVersions(input) as ManagedFieldsEntry[];
}

/**
 * {@link updateManagedFields} for a kind served in several versions: managers of other versions are compared in
 * theirs, reached through `converter`, and the answer is a promise when a conversion answers with one. When a
 * conversion fails, the old managedFields are kept (kube's UpdateNoErrors); a missing version drops its managers.
 */
export function updateAcrossVersions(input: UpdateManagedFieldsInput, converter?: VersionConverter): ManagedFieldsEntry[] | Promise<ManagedFieldsEntry[]> {
  const schema = resolveSchema(input.meta);
  const created = input.old === undefined;
  const old = created ? (input.createBase ?? BUILTIN_CREATE_BASE) : withoutManagedFields(input.old);
  const updated = withoutManagedFields(input.updated);
  const kept = () => [...(managedFieldsOf(input.old) ?? [])];
  const reset = toResetSet(input.resetFields);
  // The common create (the request brought no managedFields, a kind served in one version): one walk.
  if (created && !converter && managedFieldsOf(input.updated) == null && isEmptyMapsBase(old)) {
    if (validateTyped(updated, schema, true).length) return kept();
    const info = { manager: input.manager, apiVersion: input.apiVersion, subresource: input.subresource, now: input.now };
    return createdManagedFields(schema, old as Record<string, unknown>, updated, reset, STRIP_SET, info);
  }
  if (validateTyped(old, schema, true).length || validateTyped(updated, schema, true).length) return kept();
  // The common update, which moves no ownership (kept-owners.ts): the stored entries kept, the writer's time changed.
  const stored = !created && !converter ? storedStarting(input) : undefined;
  let comparison: Comparison | undefined; // made once: the general path below takes it too
  if (stored) {
    comparison = compareObjects(schema, old, updated);
    const writer = { manager: input.manager, apiVersion: input.apiVersion, subresource: input.subresource };
    const out = keptOwnership(stored, comparison, reset, writer, input.now);
    if (out) return out;
  }
  const starting = startingManagers(input.old, input.updated, input.subresource);
  const v = new Versions(input.apiVersion, { schema, reset }, converter);
  // What a create starts from is nothing, in every version.
  if (created && v.converter) v.same(old);
  const steps = trackUpdateSteps(v, {
    managers: withoutMissingVersions(v, starting), old, updated, manager: input.manager, apiVersion: input.apiVersion,
    subresource: input.subresource, now: input.now, comparison,
  });
  const encode = (managers: Managers) => encodeManagedFields(capUpdateManagers(managers));
  if (!v.converter) return encode(driveSync(steps));
  let result: Managers | Promise<Managers>;
  try {
    result = drive(steps, v.converter);
  } catch {
    return kept();
  }
  return result instanceof Promise ? result.then(encode, kept) : encode(result);
}
