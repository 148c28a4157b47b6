// Moving ownership between managers after a change (merge.Updater.update): fields another manager owns that the
// change modified or added are conflicts (taken from it when forced); fields the change removed leave every other
// manager's set. Reset fields are no one's concern here.
import { difference, intersection, isEmpty, paths, recursiveDifference, union, type FieldSet } from './field-set.js';
import { compareObjects, type Comparison } from './compare.js';
import type { ApplyConflict } from './conflicts.js';
import { compareStrings } from './go-json.js';
import type { Managers } from './managers.js';
import { pathString } from './path-element.js';
import type { Schema } from './schema.js';

export interface Reassigned {
  managers: Managers;
  comparison: Comparison;
  /** Non-empty only when not forced: nothing was changed then. */
  conflicts: ApplyConflict[];
}

/** Excludes the reset fields (with everything below them) from a set. */
export const filterReset = (set: FieldSet, reset: FieldSet): FieldSet => recursiveDifference(set, reset);

export function reassign(s: Schema, managers: Managers, oldObj: unknown, newObj: unknown, actor: string, force: boolean, reset: FieldSet): Reassigned {
  const raw = compareObjects(s, oldObj, newObj);
  const comparison: Comparison = {
    added: filterReset(raw.added, reset),
    modified: filterReset(raw.modified, reset),
    removed: filterReset(raw.removed, reset),
  };
  const changed = union(comparison.modified, comparison.added);
  const taken = new Map<string, FieldSet>();
  const conflicts: ApplyConflict[] = [];
  // Managers in identifier order, so that conflicts are listed as kube's message groups them.
  for (const id of [...managers.keys()].sort(compareStrings)) {
    const m = managers.get(id)!;
    if (id === actor) continue;
    const overlap = intersection(m.set, changed);
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
    let set = m.set;
    if (id !== actor) {
      const t = taken.get(id);
      if (t) set = difference(set, t);
      set = difference(set, comparison.removed);
    }
    if (!isEmpty(set)) out.set(id, set === m.set ? m : { ...m, set });
  }
  return { managers: out, comparison, conflicts: [] };
}
