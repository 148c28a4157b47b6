import { PATCH_DIRECTIVE } from './directives.js';
import { badPatchType, mergeDirectiveInList, noListOfLists, noMergeKey, StrategicMergePatchError } from './errors.js';
import { goKind, goValue, type GoKind } from './goformat.js';
import { hasKey, isMap, type JsonMap } from './json.js';
import { newValue } from './new-value.js';
import { findByKey, normalizeElementOrder, partitionByPresence, type ElementKind } from './order.js';

export interface ListMergeOptions {
  /** The field's patchMergeKey; empty for lists of scalars. */
  mergeKey: string;
  /** The patch is a `$deleteFromPrimitiveList/<field>` parallel list. */
  isDeleteList: boolean;
  /** Dotted field path, for messages. */
  path: string;
  /** Merges one patch element into the live element with the same merge key. */
  mergeElement(original: JsonMap, patch: JsonMap): JsonMap;
}

/** The one Go type shared by every element of the lists; lists of lists and mixed lists are rejected. */
export function sliceElementKind(...lists: unknown[][]): GoKind {
  let kind: GoKind | undefined;
  for (const list of lists) {
    for (const element of list) {
      const current = goKind(element);
      if (kind === undefined) {
        if (current === 'slice') throw noListOfLists();
        kind = current;
      } else if (current !== kind) {
        throw new StrategicMergePatchError(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (kind === undefined) throw new StrategicMergePatchError('no elements in any of the given slices');
  return kind;
}

export function elementKind(kind: GoKind): ElementKind {
  return kind === 'map' ? 'map' : 'scalar';
}

/**
 * Applies the `$patch` elements of a merge-keyed patch list: `delete` removes every live element with that key,
 * `replace` makes the other patch elements the whole list. Returns the live list and the patch left to merge.
 */
function applySpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const rest: unknown[] = [];
  let live = original;
  let replace = false;
  for (const element of patch) {
    const map = element as JsonMap;
    if (!hasKey(map, PATCH_DIRECTIVE)) {
      rest.push(element);
      continue;
    }
    const directive = map[PATCH_DIRECTIVE];
    if (directive === 'delete') {
      if (!hasKey(map, mergeKey)) throw noMergeKey(map, mergeKey);
      const value = map[mergeKey];
      live = live.filter((item) => !(isMap(item) && hasKey(item, mergeKey) && item[mergeKey] === value));
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw mergeDirectiveInList();
    } else {
      throw badPatchType(directive, map);
    }
  }
  return replace ? [rest.map(newValue), []] : [live, rest];
}

function mergeByKey(original: unknown[], patch: unknown[], options: ListMergeOptions): unknown[] {
  const { mergeKey } = options;
  const merged = original.slice();
  for (const element of patch) {
    const map = element as JsonMap;
    if (!hasKey(map, mergeKey)) throw noMergeKey(map, mergeKey);
    const at = findByKey(merged, mergeKey, map[mergeKey]);
    if (at >= 0) merged[at] = options.mergeElement(merged[at] as JsonMap, map);
    else merged.push(newValue(map));
  }
  return merged;
}

function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const gone = new Set(toDelete);
  return current.filter((item) => !gone.has(item));
}

/**
 * Merges a patch list into a live list whose field has patchStrategy `merge` (upstream's mergeSlice): scalars are
 * united without duplicates (or removed, for a `$deleteFromPrimitiveList` list), maps are matched by merge key and
 * merged, with `$patch` elements applied first. The result is ordered by {@link normalizeElementOrder}.
 */
export function mergeList(original: unknown[], patch: unknown[], options: ListMergeOptions): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  const { mergeKey } = options;
  let live = original;
  let rest = patch;
  let merged: unknown[];
  if (kind !== 'map') {
    if (options.isDeleteList) return deleteFromSlice(original, patch);
    merged = [...new Set([...original, ...patch])];
  } else {
    if (!mergeKey) throw new StrategicMergePatchError(`cannot merge lists without merge key for ${options.path}`);
    [live, rest] = applySpecialElements(original, patch, mergeKey);
    merged = mergeByKey(live, rest, options);
  }
  const [patchItems, serverOnly] = partitionByPresence(merged, rest, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, rest, live, mergeKey, elementKind(kind));
}
