// The managedFields of an update that moves no ownership, without decoding or encoding them. When the writer
// already owns every field it changes, no other manager owns any of them and no manager owns a field it removed
// (the never-owned metadata a request leaves out, for one), trackUpdateSteps gives every manager the set it had
// and the writer its entry with this write's time. The stored entries are in the encoder's form (every write
// stores what encodeManagedFields gave, or these entries kept), so they are kept as they are and only the writer's
// time changes. Whatever else (other owners, owned fields removed, a new entry, entries not in that form), the
// general path decides.
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { DEFAULT_MAX_UPDATE_MANAGERS } from './cap-managers.js';
import type { Comparison } from './compare.js';
import { difference, paths, union, type FieldSet } from './field-set.js';
import { compareEntries, managerIdentifier } from './managers.js';
import { filterReset } from './ownership.js';
import { serializePE, type Path } from './path-element.js';
import { STRIP_SET } from './reset-fields.js';

/** Who writes: the Update entry this write's fields go to. */
export interface Writer {
  manager: string;
  apiVersion: string;
  subresource?: string;
}

// The keys of an encoded entry, in the encoder's order, with and without its time and subresource.
const FORMS = [
  ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1'],
  ['manager', 'operation', 'apiVersion', 'fieldsType', 'fieldsV1'],
  ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'],
  ['manager', 'operation', 'apiVersion', 'fieldsType', 'fieldsV1', 'subresource'],
].map((keys) => keys.join());

const isFields = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An entry as encodeManagedFields writes one: decodable, with fields, its keys in order. */
function encoded(e: ManagedFieldsEntry): boolean {
  if (typeof e !== 'object' || e === null || !FORMS.includes(Object.keys(e).join())) return false;
  if (typeof e.manager !== 'string' || (e.operation !== 'Update' && e.operation !== 'Apply') || typeof e.apiVersion !== 'string' || !e.apiVersion) return false;
  if (e.fieldsType !== 'FieldsV1' || !isFields(e.fieldsV1) || Object.keys(e.fieldsV1).length === 0) return false;
  return (e.time === undefined || (typeof e.time === 'string' && e.time !== '')) && (e.subresource === undefined || (typeof e.subresource === 'string' && e.subresource !== ''));
}

/** Whether fieldsV1 has `path` as a member: its entry is a leaf (`{}`) or marked with `.`. */
function owns(fieldsV1: Record<string, unknown>, path: Path): boolean {
  let node: unknown = fieldsV1;
  for (const pe of path) {
    node = (node as Record<string, unknown>)[serializePE(pe)];
    if (!isFields(node)) return false;
  }
  const n = node as Record<string, unknown>;
  return '.' in n || Object.keys(n).length === 0;
}

/**
 * The managedFields after an update of `entries`' object that `comparison` describes, when it moves no ownership;
 * undefined when the general path must decide. `reset` as in trackUpdateSteps.
 */
export function keptOwnership(entries: readonly ManagedFieldsEntry[], comparison: Comparison, reset: FieldSet, writer: Writer, now: string): ManagedFieldsEntry[] | undefined {
  const info = { manager: writer.manager || 'unknown', operation: 'Update' as const, apiVersion: writer.apiVersion, subresource: writer.subresource || undefined };
  const id = managerIdentifier(info);
  const ids = new Set<string>();
  let mine: ManagedFieldsEntry | undefined;
  let updaters = 0;
  for (const e of entries) {
    if (!encoded(e)) return undefined;
    const entryId = managerIdentifier({ manager: e.manager!, operation: e.operation as 'Apply' | 'Update', apiVersion: e.apiVersion!, subresource: e.subresource });
    if (ids.has(entryId)) return undefined;
    ids.add(entryId);
    if (entryId === id) mine = e;
    if (e.operation === 'Update') updaters++;
  }
  if (updaters > DEFAULT_MAX_UPDATE_MANAGERS) return undefined;
  // What the write changed or added leaves every other manager; what it removed leaves every manager, the writer too.
  const changed = filterReset(union(comparison.modified, comparison.added), reset);
  for (const path of paths(changed)) {
    for (const e of entries) if (e !== mine && owns(e.fieldsV1 as Record<string, unknown>, path)) return undefined;
  }
  for (const path of paths(filterReset(comparison.removed, reset))) {
    for (const e of entries) if (owns(e.fieldsV1 as Record<string, unknown>, path)) return undefined;
  }
  const own = paths(difference(changed, STRIP_SET));
  if (!own.length) return [...entries];
  if (!mine || !own.every((path) => owns(mine!.fieldsV1 as Record<string, unknown>, path))) return undefined;
  const stamped: ManagedFieldsEntry = { manager: mine.manager, operation: 'Update', apiVersion: mine.apiVersion };
  if (now) stamped.time = now;
  stamped.fieldsType = 'FieldsV1';
  stamped.fieldsV1 = mine.fieldsV1;
  if (mine.subresource) stamped.subresource = mine.subresource;
  return entries.map((e) => (e === mine ? stamped : e)).sort(compareEntries);
}
