// How a list element is addressed: a map-list element by its key fields (a missing key takes its schema default),
// a set element by its value. Elements that cannot be addressed get `undefined`; validate.ts reports them.
import { keyPE, type KeyField, type PathElement } from './path-element.js';
import type { ListType, Schema, TypeRef } from './schema.js';

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The list type of the list at `t`, atomic when the schema types the field as a scalar. */
export const listTypeAt = (s: Schema, t: TypeRef): ListType => (s.leafOnly(t) ? { type: 'atomic' } : s.list(t));

/** The path element of an associative list's element, or why there is none (upstream's messages). */
export function listItemPE(s: Schema, t: TypeRef, lt: ListType, item: unknown): PathElement | string {
  if (lt.type === 'map') {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isObject(item)) return 'associative list with keys may not have non-map elements';
    const fields: KeyField[] = [];
    for (const key of lt.keys) {
      if (Object.hasOwn(item, key) && item[key] !== undefined) fields.push([key, item[key]]);
      else {
        const def = s.keyDefault(t, key);
        if (def === undefined) return `associative list with keys has an element that omits key field "${key}" (and doesn't have default value)`;
        fields.push([key, def]);
      }
    }
    return keyPE(fields);
  }
  if (isObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return { kind: 'value', value: item };
}

/** The element's path element, or undefined when it has none (invalid input, already reported by validation). */
export function itemPE(s: Schema, t: TypeRef, lt: ListType, item: unknown): PathElement | undefined {
  const pe = listItemPE(s, t, lt, item);
  return typeof pe === 'string' ? undefined : pe;
}
