import { setOwn } from '../meta/own.js';
import type { FieldShape, FieldTree } from './types.js';
import { walkFieldTree, type TypeShape } from './walk.js';

const positions = new WeakMap<TypeShape, Map<string, number>>();
const positionsOf = (type: TypeShape) => {
  let p = positions.get(type);
  if (!p) positions.set(type, (p = new Map(Object.keys(type.props).map((k, i) => [k, i]))));
  return p;
};

const isMapShape = (shape: FieldShape | undefined): boolean => typeof shape === 'object' && shape !== null && 'm' in shape;

/**
 * Puts `obj`'s own keys in `keys`' order (a permutation of them), in place (`__proto__` and the like as plain keys).
 * The keys from the first one out of place on are deleted last first, then added again: V8 keeps an object whose
 * newest property is deleted in its fast form, where deleting any other turns it into a slow dictionary that every
 * later walk and serialization of the object pays for.
 */
function reorder(obj: Record<string, unknown>, keys: readonly string[]): void {
  const current = Object.keys(obj);
  let from = 0;
  while (from < keys.length && current[from] === keys[from]) from++;
  const values = new Map<string, unknown>();
  for (let i = current.length - 1; i >= from; i--) {
    values.set(current[i], obj[current[i]]);
    delete obj[current[i]];
  }
  for (let i = from; i < keys.length; i++) setOwn(obj, keys[i], values.get(keys[i]));
}

function sortedIfNeeded(keys: string[], compare: (a: string, b: string) => number): string[] | undefined {
  for (let i = 1; i < keys.length; i++) if (compare(keys[i - 1], keys[i]) > 0) return [...keys].sort(compare);
  return undefined;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Puts an object's keys in the order kube writes them in JSON: the fields of each type in Go's struct order (the
 * schema's property order: `kind`, `apiVersion`, `metadata`, `spec`, ...), fields the schema does not know after
 * them as they came, and the keys of maps (labels, data, ...) sorted, as Go's encoder sorts map keys. In place.
 */
export function orderKeys(tree: FieldTree, typeKey: string, obj: unknown): void {
  walkFieldTree(tree, typeKey, obj, {
    onObject(type, value) {
      const keys = Object.keys(value);
      const at = positionsOf(type);
      const position = (k: string) => at.get(k) ?? Number.MAX_SAFE_INTEGER;
      const sorted = sortedIfNeeded(keys, (a, b) => position(a) - position(b));
      if (sorted) reorder(value, sorted);
      for (const key of keys) {
        const map = value[key];
        if (!Object.hasOwn(type.props, key) || !isMapShape(type.props[key]) || !map || typeof map !== 'object' || Array.isArray(map)) continue;
        const mapKeys = sortedIfNeeded(Object.keys(map), byCodeUnit);
        if (mapKeys) reorder(map as Record<string, unknown>, mapKeys);
      }
    },
  });
}
