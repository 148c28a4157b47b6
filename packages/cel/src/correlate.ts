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

/** JSON deep equality (kube's CachedDeepEqual of correlated values, used for ratcheting), without recursion. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      x.forEach((v, i) => stack.push([v, ys[i]]));
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const xk = Object.keys(xo).filter((k) => xo[k] !== undefined);
    const yk = Object.keys(yo).filter((k) => yo[k] !== undefined);
    if (xk.length !== yk.length) return false;
    for (const k of xk) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push([xo[k], yo[k]]);
    }
  }
  return true;
}

export { isObject };
