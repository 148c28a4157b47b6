// Which old value an element of a new object corresponds to on update: object properties and map values by key,
// items of `x-kubernetes-list-type: map` lists by their keys. Nothing else correlates (kube's maplist.go).
import { isMapList, type StructuralSchema } from './schema.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function itemKey(item: unknown, keys: string[], itemSchema: StructuralSchema | undefined): string | undefined {
  if (!isObject(item)) return undefined;
  return JSON.stringify(keys.map((k) => (Object.hasOwn(item, k) ? item[k] : (itemSchema?.properties?.[k]?.default ?? null))));
}

/** Finds the old item of a map-list that has the keys of a new one; finds nothing for other lists. */
export function oldItemFinder(schema: StructuralSchema, oldList: unknown): (item: unknown) => unknown {
  if (!isMapList(schema) || !Array.isArray(oldList)) return () => undefined;
  const keys = schema['x-kubernetes-list-map-keys']!;
  const byKey = new Map<string, unknown>();
  for (const old of oldList) {
    const k = itemKey(old, keys, schema.items);
    if (k !== undefined && !byKey.has(k)) byKey.set(k, old);
  }
  return (item) => {
    const k = itemKey(item, keys, schema.items);
    return k === undefined ? undefined : byKey.get(k);
  };
}

/** JSON deep equality (kube's CachedDeepEqual of correlated values, used for ratcheting). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

export { isObject };
