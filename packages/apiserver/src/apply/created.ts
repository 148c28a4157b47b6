// The field ownership a create records, in one walk of the new object: what trackUpdateSteps gives when nothing
// was owned before (no managers: the request brought no managedFields) and the old object is a create base of
// empty maps, written straight as the manager's fieldsV1. The general path compares the base with the object
// (compareObjects), builds field sets, takes the reset and never-owned fields out of them and encodes the result;
// here the object is walked once, and the same rules decide what each field contributes:
//
// - a field the base lacks is added, with everything below it, and so owned (a granular map or list as a member
//   itself: its "." entry); a leaf (scalar, null, atomic or empty map or list, a scalar-typed field) is owned alone;
// - an element repeated in an associative list is owned as the element only;
// - a field of the base (an empty map) is owned when the object gives it another value, and only the fields below
//   it when the object gives it fields of a granular map (it was there before);
// - reset fields (status on the main resource) are left out with everything below them, and the never-owned ones
//   (STRIP_SET: apiVersion, kind, metadata, metadata.name, ...) as members only.
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { has, withPrefix, type FieldSet } from './field-set.js';
import { isObject, itemPE, listTypeAt } from './list-items.js';
import { comparePE, fieldPE, serializePE, valuesEqual, type PathElement } from './path-element.js';
import type { Schema, TypeRef } from './schema.js';

/** Whether `base` is a create base this walk knows: an object whose fields are all empty objects. */
export function isEmptyMapsBase(base: unknown): boolean {
  if (!isObject(base)) return false;
  for (const k in base) {
    if (!Object.hasOwn(base, k)) continue;
    const v = base[k];
    if (!isObject(v) || Object.keys(v).length > 0) return false;
  }
  return true;
}

type Entry = [pe: PathElement, key: string, value: Record<string, unknown>];

const EMPTY: Readonly<Record<string, never>> = Object.freeze({});

/** The fieldsV1 object of entries, in fieldsV1's order ("." first, then the path elements' order). */
function entriesObject(entries: Entry[], self: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (self) out['.'] = {};
  entries.sort((a, b) => comparePE(a[0], b[0]));
  for (const [, key, value] of entries) out[key] = value;
  return out;
}

/**
 * The fieldsV1 a create's manager gets for `obj` (without its managedFields) against an empty-maps `base`, or
 * undefined when it owns nothing. `reset` and `strip` as in trackUpdateSteps.
 */
export function createdFieldsV1(s: Schema, base: Record<string, unknown>, obj: unknown, reset: FieldSet, strip: FieldSet): Record<string, unknown> | undefined {
  /**
   * What `pe` contributes below its parent: `member` when its own path is owned, `below` the entries of what is
   * owned below it (undefined for none). Adds the entry to `into`.
   */
  const put = (into: Entry[], pe: PathElement, member: boolean, below: Entry[] | undefined, strip: FieldSet) => {
    const owned = member && !has(strip, [pe]);
    if (below?.length) into.push([pe, serializePE(pe), entriesObject(below, owned)]);
    else if (owned) into.push([pe, serializePE(pe), {}]);
  };

  /** The entries owned below a value the base does not have (everything in it). */
  const added = (r: unknown, t: TypeRef, reset: FieldSet, strip: FieldSet): Entry[] | undefined => {
    if (s.leafOnly(t) || r === null || typeof r !== 'object') return undefined;
    if (Array.isArray(r)) {
      const lt = listTypeAt(s, t);
      if (lt.type === 'atomic' || r.length === 0) return undefined;
      const el = s.element(t);
      const byId = new Map<string, { pe: PathElement; items: unknown[] }>();
      for (const item of r) {
        const pe = itemPE(s, t, lt, item);
        if (!pe) continue;
        const id = serializePE(pe);
        const seen = byId.get(id);
        if (seen) seen.items.push(item);
        else byId.set(id, { pe, items: [item] });
      }
      const out: Entry[] = [];
      for (const { pe, items } of byId.values()) {
        if (has(reset, [pe])) continue;
        // A repeated element is owned as the element alone.
        const below = items.length === 1 ? added(items[0], el, withPrefix(reset, pe), withPrefix(strip, pe)) : undefined;
        put(out, pe, true, below, strip);
      }
      return out;
    }
    if (s.atomicObject(t)) return undefined;
    const out: Entry[] = [];
    for (const k in r) {
      if (!Object.hasOwn(r, k)) continue;
      const v = (r as Record<string, unknown>)[k];
      if (v === undefined) continue;
      const pe = fieldPE(k);
      if (has(reset, [pe])) continue;
      put(out, pe, true, added(v, s.field(t, k), withPrefix(reset, pe), withPrefix(strip, pe)), strip);
    }
    return out;
  };

  if (!isObject(obj) || s.leafOnly(s.root) || s.atomicObject(s.root)) return undefined;
  const root: Entry[] = [];
  for (const k in obj) {
    if (!Object.hasOwn(obj, k)) continue;
    const r = obj[k];
    if (r === undefined) continue;
    const pe = fieldPE(k);
    if (has(reset, [pe])) continue;
    const t = s.field(s.root, k);
    const childReset = withPrefix(reset, pe);
    const childStrip = withPrefix(strip, pe);
    if (!Object.hasOwn(base, k)) {
      put(root, pe, true, added(r, t, childReset, childStrip), strip);
      continue;
    }
    // The base has an empty map here: the map stays (its fields below are added) unless the object replaces it.
    if (isObject(r) && Object.keys(r).length > 0 && !s.leafOnly(t) && !s.atomicObject(t)) {
      put(root, pe, false, added(r, t, childReset, childStrip), strip);
    } else if (!valuesEqual(EMPTY, r)) {
      put(root, pe, true, undefined, strip);
    }
  }
  return root.length ? entriesObject(root, false) : undefined;
}

/** The managedFields of a create with nothing owned before: the manager's one entry, or none. */
export function createdManagedFields(
  s: Schema,
  base: Record<string, unknown>,
  obj: unknown,
  reset: FieldSet,
  strip: FieldSet,
  info: { manager: string; apiVersion: string; subresource?: string; now: string },
): ManagedFieldsEntry[] {
  const fieldsV1 = createdFieldsV1(s, base, obj, reset, strip);
  if (fieldsV1 === undefined) return [];
  const entry: ManagedFieldsEntry = { manager: info.manager || 'unknown', operation: 'Update', apiVersion: info.apiVersion };
  if (info.now) entry.time = info.now;
  entry.fieldsType = 'FieldsV1';
  entry.fieldsV1 = fieldsV1;
  if (info.subresource) entry.subresource = info.subresource;
  return [entry];
}
