import { isObj } from '@kapi/apimachinery';
import { itemsOf, mapListKey, valuesOf, type JSONSchemaProps } from '../schema.js';
import { jsonEqual } from '../validation/json.js';

// Validation ratcheting (kube 1.33, CRDValidationRatcheting, GA): on an update, a schema error at a value the update
// left as it was is not held against it, so that a CRD may tighten its schema without making every stored object
// impossible to update. As kube's RatchetingSchemaValidator, the new value at the error is correlated with an old
// one by walking both from the root: object fields by name, items of a `map` list by their keys, items of a list
// without a list type by index, and items of `set` and `atomic` lists not at all. The error is dropped when the
// deepest value correlated on that walk equals its old value (an unchanged parent has unchanged children, so that
// node decides).

/** A map-list item's key (its key fields' values, with defaults) as text; undefined when one is not a scalar. */
function mapKey(node: JSONSchemaProps, item: unknown): string | undefined {
  if (!isObj(item)) return undefined;
  const key = mapListKey(node, item);
  if (Object.values(key).some((v) => v === null || typeof v === 'object')) return undefined;
  return JSON.stringify((node['x-kubernetes-list-map-keys'] ?? []).map((k) => key[k] ?? null));
}

/**
 * What one object's errors share, so that many errors in one big list cost no more than the list: the items of old
 * `map` lists by key (as kube caches its MapList), and whether a new value (an object or list) equals an old one.
 */
export interface RatchetCache {
  lists: WeakMap<unknown[], Map<string, unknown>>;
  equal: WeakMap<object, Map<unknown, boolean>>;
}

export const newRatchetCache = (): RatchetCache => ({ lists: new WeakMap(), equal: new WeakMap() });

/** The old item a new list item is correlated with, per the list's type; undefined if it has none. */
function oldItem(node: JSONSchemaProps, list: unknown[], old: unknown[], index: number, cache: RatchetCache): { value: unknown } | undefined {
  switch (node['x-kubernetes-list-type']) {
    case 'map': {
      const key = mapKey(node, list[index]);
      if (key === undefined) return undefined;
      let byKey = cache.lists.get(old);
      if (!byKey) {
        byKey = new Map();
        for (const item of old) {
          const k = mapKey(node, item);
          // The first item with a key is the one kube's MapList finds.
          if (k !== undefined && !byKey.has(k)) byKey.set(k, item);
        }
        cache.lists.set(old, byKey);
      }
      return byKey.has(key) ? { value: byKey.get(key) } : undefined;
    }
    case 'set':
    case 'atomic':
      return undefined;
    default:
      return index < old.length ? { value: old[index] } : undefined;
  }
}

/**
 * Whether an error found at `pointer` (a JSON pointer into `value`, as ajv's instancePath) ratchets: the deepest
 * value on its path that correlates with one in `old` is unchanged. `cache` is shared by the errors of one object.
 */
export function unchangedAt(schema: JSONSchemaProps | undefined, value: unknown, old: unknown, pointer: string, cache: RatchetCache = newRatchetCache()): boolean {
  let node = schema;
  for (const raw of pointer ? pointer.split('/').slice(1) : []) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value) && Array.isArray(old)) {
      const index = Number(segment);
      const correlated = node ? oldItem(node, value, old, index, cache) : index < old.length ? { value: old[index] } : undefined;
      if (!correlated) break;
      value = value[index];
      old = correlated.value;
      node = node && itemsOf(node);
    } else if (isObj(value) && isObj(old) && Object.prototype.hasOwnProperty.call(old, segment)) {
      value = value[segment];
      old = old[segment];
      node = node?.properties?.[segment] ?? (node && valuesOf(node));
    } else {
      break;
    }
  }
  if (value === null || typeof value !== 'object') return jsonEqual(value, old);
  // One comparison per pair of values, however many errors lie below them.
  let olds = cache.equal.get(value);
  if (!olds) cache.equal.set(value, (olds = new Map()));
  let equal = olds.get(old);
  if (equal === undefined) olds.set(old, (equal = jsonEqual(value, old)));
  return equal;
}
