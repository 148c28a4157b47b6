// Moving ownership between managers after a change (merge.Updater.update): fields another manager owns that the
// change modified or added are conflicts (taken from it when forced); fields the change removed leave every other
// manager's set. Each manager is compared in its own apiVersion. Reset fields are no one's concern here.
import { difference, intersection, isEmpty, paths, recursiveDifference, union, type FieldSet } from './field-set.js';
import { compareObjects, type Comparison } from './compare.js';
import type { ApplyConflict } from './conflicts.js';
import { compareStrings } from './go-json.js';
import type { Managers } from './managers.js';
import { pathString } from './path-element.js';
import type { Schema } from './schema.js';
import { driveSync, Versions, type Steps } from './versions.js';

export interface Reassigned {
  managers: Managers;
  comparison: Comparison;
  /** Non-empty only when not forced: nothing was changed then. */
  conflicts: ApplyConflict[];
}

/** Excludes the reset fields (with everything below them) from a set. */
export const filterReset = (set: FieldSet, reset: FieldSet): FieldSet => recursiveDifference(set, reset);

/**
 * The ownership step of a write (merge.Updater.update): `oldObj` and `newObj` are in the request's version; every
 * other manager is compared in its own (see {@link Versions}), and one whose version is missing is dropped.
 * `compared`: the two objects' comparison in the request's version, when the caller made it already.
 */
export function* reassignSteps(
  v: Versions, managers: Managers, oldObj: unknown, newObj: unknown, actor: string, force: boolean, compared?: Comparison,
): Steps<Reassigned> {
  const request = v.view(v.request)!;
  const comparison = filtered(compared ?? compareObjects(request.schema, oldObj, newObj), request.reset);
  // By version: the comparison there and what it changed; undefined for a missing version.
  const byVersion = new Map<string, { comparison: Comparison; changed: FieldSet } | undefined>([
    [v.request, { comparison, changed: union(comparison.modified, comparison.added) }],
  ]);
  const taken = new Map<string, FieldSet>();
  const dropped = new Set<string>();
  const conflicts: ApplyConflict[] = [];
  // Managers in identifier order, so that conflicts are listed as kube's message groups them.
  for (const id of [...managers.keys()].sort(compareStrings)) {
    const m = managers.get(id)!;
    if (id === actor) continue;
    const version = v.of(m.apiVersion);
    if (!byVersion.has(version)) {
      const view = v.view(version);
      const converted = view && (yield* v.convert([oldObj, newObj], v.request, version));
      const c = view && converted && filtered(compareObjects(view.schema, converted[0], converted[1]), view.reset);
      byVersion.set(version, c ? { comparison: c, changed: union(c.modified, c.added) } : undefined);
    }
    const inVersion = byVersion.get(version);
    if (!inVersion) {
      dropped.add(id);
      continue;
    }
    const overlap = intersection(m.set, inVersion.changed);
    if (isEmpty(overlap)) continue;
    taken.set(id, overlap);
    for (const p of paths(overlap)) {
      const c: ApplyConflict = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, field: pathString(p) };
      if (m.subresource) c.subresource = m.subresource;
      conflicts.push(c);
    }
  }
  if (!force && conflicts.length) return { managers, comparison, conflicts };
  const out: Managers = new Map();
  for (const [id, m] of managers) {
    if (dropped.has(id)) continue;
    let set = m.set;
    if (id !== actor) {
      const t = taken.get(id);
      if (t) set = difference(set, t);
      set = difference(set, byVersion.get(v.of(m.apiVersion))!.comparison.removed);
    }
    if (!isEmpty(set)) out.set(id, set === m.set ? m : { ...m, set });
  }
  return { managers: out, comparison, conflicts: [] };
}

const filtered = (raw: Comparison, reset: FieldSet): Comparison => ({
  added: filterReset(raw.added, reset),
  modified: filterReset(raw.modified, reset),
  removed: filterReset(raw.removed, reset),
});

/** {@link reassignSteps} with every manager compared in the request's version (a kind served in one version). */
export function reassign(s: Schema, managers: Managers, oldObj: unknown, newObj: unknown, actor: string, force: boolean, reset: FieldSet): Reassigned {
  return driveSync(reassignSteps(new Versions('', { schema: s, reset }), managers, oldObj, newObj, actor, force));
}
