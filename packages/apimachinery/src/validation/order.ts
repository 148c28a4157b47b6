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

/** Puts `obj`'s own keys in `keys`' order, in place (`__proto__` and the like as plain keys). */
function reorder(obj: Record<string, unknown>, keys: readonly string[]): void {
  const entries = keys.map((k) => [k, obj[k]] as const);
  for (const k of keys) delete obj[k];
  for (const [k, v] of entries) setOwn(obj, k, v);
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
