import { isObj } from '@kapi/apimachinery';
import { itemsOf, valuesOf, type JSONSchemaProps } from '../schema.js';
import { jsonEqual } from '../validation/json.js';

// Validation ratcheting (kube 1.33, CRDValidationRatcheting, GA): on an update, a schema error at a value the update
// left as it was is not held against it, so that a CRD may tighten its schema without making every stored object
// impossible to update. As kube's RatchetingSchemaValidator, the new value at the error is correlated with an old
// one by walking both from the root: object fields by name, items of a `map` list by their keys, items of a list
// without a list type by index, and items of `set` and `atomic` lists not at all. The error is dropped when the
// deepest value correlated on that walk equals its old value (an unchanged parent has unchanged children, so that
// node decides).

/** A map-list item's key: its key fields' scalar values (a missing one with its default); undefined if not scalar. */
function mapKey(node: JSONSchemaProps, item: unknown): string | undefined {
  if (!isObj(item)) return undefined;
  const items = itemsOf(node);
  const key: unknown[] = [];
  for (const k of node['x-kubernetes-list-map-keys'] ?? []) {
    const value = item[k] ?? items?.properties?.[k]?.default;
    if (value !== undefined && (value === null || typeof value === 'object')) return undefined;
    key.push(value ?? null);
  }
  return JSON.stringify(key);
}

/** The old item a new list item is correlated with, per the list's type; undefined if it has none. */
function oldItem(node: JSONSchemaProps, list: unknown[], old: unknown[], index: number): { value: unknown } | undefined {
  switch (node['x-kubernetes-list-type']) {
    case 'map': {
      const key = mapKey(node, list[index]);
      if (key === undefined) return undefined;
      const match = old.find((item) => mapKey(node, item) === key);
      return match === undefined ? undefined : { value: match };
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
 * value on its path that correlates with one in `old` is unchanged.
 */
export function unchangedAt(schema: JSONSchemaProps | undefined, value: unknown, old: unknown, pointer: string): boolean {
  let node = schema;
  for (const raw of pointer ? pointer.split('/').slice(1) : []) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value) && Array.isArray(old)) {
      const index = Number(segment);
      const correlated = node ? oldItem(node, value, old, index) : index < old.length ? { value: old[index] } : undefined;
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
  return jsonEqual(value, old);
}
