import { isDirectiveKey, PATCH_DIRECTIVE } from './directives.js';
import { badPatchType, mergeDirectiveInList } from './errors.js';
import { hasKey, isMap, setKey, type JsonMap } from './json.js';

/** Marks a patch value that leaves nothing behind (`{"$patch": "delete"}` where there is nothing to delete). */
export const DROP: unique symbol = Symbol('drop');

/**
 * Turns a patch value that lands where the original has nothing to merge with (a new key, a changed type, a
 * replaced list or map) into plain content: nulls inside maps are discarded and directives are removed, as upstream
 * does with discardNullValuesFromPatch and removeDirectives. A map carrying `$patch: delete` disappears; unlike
 * upstream, `$patch: replace` keeps the rest of its map and an unknown `$patch` value is an error instead of
 * silently dropping the map. Returns fresh objects, never the patch's own.
 */
export function newValue(value: unknown): unknown {
  if (Array.isArray(value)) return newList(value);
  if (isMap(value)) return newMap(value);
  return value;
}

export function newList(list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const element of list) {
    if (isMap(element) && hasKey(element, PATCH_DIRECTIVE)) {
      const directive = element[PATCH_DIRECTIVE];
      // Deleting from, or replacing, a list that is not there: the marker element itself is all that goes.
      if (directive === 'delete' || directive === 'replace') continue;
      if (directive === 'merge') throw mergeDirectiveInList();
      throw badPatchType(directive, element);
    }
    out.push(newValue(element));
  }
  return out;
}

export function newMap(map: JsonMap): JsonMap | typeof DROP {
  if (hasKey(map, PATCH_DIRECTIVE)) {
    const directive = map[PATCH_DIRECTIVE];
    if (directive === 'delete') return DROP;
    if (directive !== 'replace') throw badPatchType(directive, map);
  }
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(map)) {
    if (value === null || value === undefined || isDirectiveKey(key)) continue;
    const converted = newValue(value);
    if (converted !== DROP) setKey(out, key, converted);
  }
  return out;
}
