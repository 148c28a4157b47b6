// Merging an applied configuration into the live object (typed.Merge): scalars and atomic values are replaced,
// granular maps merged key by key, map-lists merged element by element by key, sets unioned. List order follows
// upstream: live order, with applied elements placed at the position the applied order asks for.
import { getOwn, setOwn } from '@kapi/apimachinery';
import { isObject, itemPE, listTypeAt } from './list-items.js';
import { serializePE, type PathElement } from './path-element.js';
import type { ListType, Schema, TypeRef } from './schema.js';

type Kind = 'scalar' | 'list' | 'map';
const kindOf = (v: unknown): Kind | undefined =>
  v === undefined || v === null ? undefined : Array.isArray(v) ? 'list' : isObject(v) ? 'map' : 'scalar';

/** `rhs` merged into `lhs` (either may be undefined); returns undefined only when both are. Inputs are not changed. */
export function mergeObjects(s: Schema, lhs: unknown, rhs: unknown): unknown {
  return merge(s, lhs, rhs, s.root);
}

const keepRHS = (l: unknown, r: unknown): unknown => (r !== undefined ? r : l);

function merge(s: Schema, l: unknown, r: unknown, t: TypeRef): unknown {
  if (l === undefined) return r;
  if (r === undefined) return l;
  const kl = kindOf(l);
  const kr = kindOf(r);
  const kind = kl && kr && kl !== kr ? undefined : (kr ?? kl ?? 'scalar');
  if (kind === undefined || kind === 'scalar' || s.leafOnly(t)) return keepRHS(l, r);
  if (kind === 'list') {
    const ll = Array.isArray(l) ? l : undefined;
    const rl = Array.isArray(r) ? r : undefined;
    const lt = listTypeAt(s, t);
    if (lt.type === 'atomic' || (!ll?.length && !rl?.length)) return keepRHS(l, r);
    const out = mergeList(s, ll ?? [], rl ?? [], t, lt);
    return out.length ? out : undefined;
  }
  const lm = isObject(l) ? l : undefined;
  const rm = isObject(r) ? r : undefined;
  const empty = (m: Record<string, unknown> | undefined) => !m || Object.keys(m).length === 0;
  if (s.atomicObject(t) || (empty(lm) && empty(rm))) return keepRHS(l, r);
  const out: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(lm ?? {}), ...Object.keys(rm ?? {})])) {
    const v = merge(s, getOwn(lm, k), getOwn(rm, k), s.field(t, k));
    if (v !== undefined) setOwn(out, k, v);
  }
  return Object.keys(out).length ? out : undefined;
}

interface Indexed {
  pes: (PathElement | undefined)[];
  ids: (string | undefined)[];
  /** First value per element id; a repeated id (allowed in live only) maps to null and is not merged. */
  values: Map<string, unknown>;
}

function index(s: Schema, t: TypeRef, lt: ListType, items: unknown[]): Indexed {
  const pes = items.map((item) => itemPE(s, t, lt, item));
  const ids = pes.map((pe) => (pe ? serializePE(pe) : undefined));
  const values = new Map<string, unknown>();
  ids.forEach((id, i) => {
    if (id === undefined) return;
    values.set(id, values.has(id) ? null : items[i]);
  });
  return { pes, ids, values };
}

// Port of mergingWalker.visitListItems' ordering: walk both lists together, emitting live-only elements in place,
// and taking shared elements in the order the applied list has them.
function mergeList(s: Schema, lhs: unknown[], rhs: unknown[], t: TypeRef, lt: ListType): unknown[] {
  const el = s.element(t);
  const L = index(s, t, lt, lhs);
  const R = index(s, t, lt, rhs);
  const lIds = L.ids.filter((id): id is string => id !== undefined);
  const lItems = lhs.filter((_, i) => L.ids[i] !== undefined);
  const rIds = R.ids.filter((id): id is string => id !== undefined);
  const shared = rIds.filter((id) => L.values.has(id));
  let next = 0;
  let nextShared: string | undefined = shared[next++];
  const mergedRHS = new Set<string>();
  const out: unknown[] = [];
  const emit = (v: unknown) => {
    if (v !== undefined) out.push(v);
  };
  for (let lI = 0, rI = 0; lI < lIds.length || rI < rIds.length; ) {
    if (lI < lIds.length && rI < rIds.length) {
      const id = lIds[lI]!;
      if (id === rIds[rI]) {
        mergedRHS.add(id);
        emit(merge(s, nullToUndef(L.values.get(id)), R.values.get(id), el));
        lI++;
        rI++;
        nextShared = shared[next++];
        continue;
      }
      if (R.values.has(id) && nextShared !== undefined && nextShared !== id) {
        lI++;
        continue;
      }
    }
    if (lI < lIds.length) {
      const id = lIds[lI]!;
      if (!R.values.has(id)) {
        emit(merge(s, lItems[lI], undefined, el));
        lI++;
        continue;
      } else if (mergedRHS.has(id)) {
        lI++;
      }
    }
    if (rI < rIds.length) {
      const id = rIds[rI]!;
      mergedRHS.add(id);
      emit(merge(s, nullToUndef(L.values.get(id)), R.values.get(id), el));
      rI++;
      if (nextShared !== undefined && nextShared === id) nextShared = shared[next++];
    }
  }
  return out;
}

// A repeated live element is not merged with the applied one (upstream stores a null for it): absent on the left.
const nullToUndef = (v: unknown): unknown => (v === null ? undefined : v);
