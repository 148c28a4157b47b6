// What changed from one object to another (typed.Compare): Added, Modified and Removed field sets. A leaf (scalar,
// atomic list or map, or a map or list empty on both sides) is compared by value; a granular map or list that
// appears or disappears is itself added or removed, as are the fields inside it.
import { getOwn } from '@kapi/apimachinery';
import { SetBuilder, type FieldSet } from './field-set.js';
import { isObject, itemPE, listTypeAt } from './list-items.js';
import { fieldPE, serializePE, valuesEqual, type PathElement } from './path-element.js';
import type { Schema, TypeRef } from './schema.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

type Kind = 'scalar' | 'list' | 'map';
const kindOf = (v: unknown): Kind | undefined =>
  v === undefined || v === null ? undefined : Array.isArray(v) ? 'list' : isObject(v) ? 'map' : 'scalar';

/**
 * Where the walk is: the path elements up to here, linked from the innermost. A path is made into an array only for
 * a field that changed (most fields of a write are the same on both sides).
 */
interface At {
  readonly up: At | undefined;
  readonly pe: PathElement | undefined;
}

const ROOT: At = { up: undefined, pe: undefined };

function pathOf(at: At): PathElement[] {
  const out: PathElement[] = [];
  for (let a: At | undefined = at; a && a.pe; a = a.up) out.push(a.pe);
  return out.reverse();
}

/** Compares `lhs` to `rhs` (either may be undefined: absent); both are whole objects of the schema's kind. */
export function compareObjects(s: Schema, lhs: unknown, rhs: unknown): Comparison {
  const added = new SetBuilder();
  const modified = new SetBuilder();
  const removed = new SetBuilder();

  const leaf = (l: unknown, r: unknown, at: At) => {
    if (l === undefined) added.insert(pathOf(at));
    else if (r === undefined) removed.insert(pathOf(at));
    else if (!valuesEqual(l, r)) modified.insert(pathOf(at));
  };

  const field = (lm: Record<string, unknown> | undefined, rm: Record<string, unknown> | undefined, k: string, t: TypeRef, at: At) => {
    const lv = getOwn(lm, k);
    const rv = getOwn(rm, k);
    if (lv !== undefined || rv !== undefined) walk(lv, rv, s.field(t, k), { up: at, pe: fieldPE(k) });
  };

  const walk = (l: unknown, r: unknown, t: TypeRef, at: At) => {
    const kl = kindOf(l);
    const kr = kindOf(r);
    // A null is whatever the other side is (upstream's deduceAtom); two different non-null kinds are a changed leaf.
    const kind = kl && kr && kl !== kr ? undefined : (kr ?? kl ?? 'scalar');
    let inLeaf = false;
    if (kind === undefined || kind === 'scalar' || s.leafOnly(t)) {
      leaf(l, r, at);
      inLeaf = true;
    } else if (kind === 'list') {
      const ll = Array.isArray(l) ? l : undefined;
      const rl = Array.isArray(r) ? r : undefined;
      const lt = listTypeAt(s, t);
      if (lt.type === 'atomic' || (!ll?.length && !rl?.length)) {
        leaf(l, r, at);
        inLeaf = true;
      } else {
        visitList(ll ?? [], rl ?? [], t, lt, at);
      }
    } else {
      const lm = isObject(l) ? l : undefined;
      const rm = isObject(r) ? r : undefined;
      const empty = (m: Record<string, unknown> | undefined) => !m || Object.keys(m).length === 0;
      if (s.atomicObject(t) || (empty(lm) && empty(rm))) {
        leaf(l, r, at);
        inLeaf = true;
      } else {
        // The keys of the left side, then those only the right side has.
        if (lm) for (const k of Object.keys(lm)) field(lm, rm, k, t, at);
        if (rm) for (const k of Object.keys(rm)) if (!lm || !Object.hasOwn(lm, k)) field(lm, rm, k, t, at);
      }
    }
    if (!inLeaf) {
      if (l === undefined) added.insert(pathOf(at));
      else if (r === undefined) removed.insert(pathOf(at));
    }
  };

  const visitList = (l: unknown[], r: unknown[], t: TypeRef, lt: ReturnType<typeof listTypeAt>, at: At) => {
    const el = s.element(t);
    // Every element once (lhs first), with its values on each side; more than one value means a repeated key.
    const order = new Map<string, PathElement>();
    const lv = new Map<string, unknown[]>();
    const rv = new Map<string, unknown[]>();
    const index = (items: unknown[], into: Map<string, unknown[]>) => {
      for (const item of items) {
        const pe = itemPE(s, t, lt, item);
        if (!pe) continue;
        const id = serializePE(pe);
        const seen = into.get(id);
        if (seen) seen.push(item);
        else into.set(id, [item]);
        if (!order.has(id)) order.set(id, pe);
      }
    };
    index(l, lv);
    index(r, rv);
    for (const [id, pe] of order) {
      const ls = lv.get(id) ?? [];
      const rs = rv.get(id) ?? [];
      const p: At = { up: at, pe };
      if (ls.length <= 1 && rs.length <= 1) walk(ls[0], rs[0], el, p);
      else if (ls.length >= 2 && rs.length >= 2) {
        if (ls.length !== rs.length || ls.some((x, i) => !valuesEqual(x, rs[i]))) modified.insert(pathOf(p));
      } else if (ls.length >= 2) {
        if (rs.length) walk(undefined, rs[0], el, p);
        removed.insert(pathOf(p));
      } else {
        if (ls.length) walk(ls[0], undefined, el, p);
        added.insert(pathOf(p));
      }
    }
  };

  walk(lhs, rhs, s.root, ROOT);
  return { added: added.build(), modified: modified.build(), removed: removed.build() };
}
