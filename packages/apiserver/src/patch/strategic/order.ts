import { PATCH_DIRECTIVE } from './directives.js';
import { badArgType, noMergeKey, StrategicMergePatchError } from './errors.js';
import { mapTypeName } from './goformat.js';
import { hasKey, isMap } from './json.js';

/** Lists merge either as maps identified by a merge key or as scalars compared by value. */
export type ElementKind = 'map' | 'scalar';

/** What identifies an element: its merge-key value for maps (missing reads as null, as in Go), itself otherwise. */
function identity(item: unknown, mergeKey: string, kind: ElementKind): unknown {
  if (kind !== 'map') return item;
  return isMap(item) ? (item[mergeKey] ?? null) : null;
}

/** Position of the first element of `list` with the same identity, or -1. */
function positions(list: unknown[], mergeKey: string, kind: ElementKind): (item: unknown) => number {
  const first = new Map<unknown, number>();
  list.forEach((item, i) => {
    const id = identity(item, mergeKey, kind);
    if (!first.has(id)) first.set(id, i);
  });
  return (item) => first.get(identity(item, mergeKey, kind)) ?? -1;
}

export function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw badArgType(mapTypeName, item);
      if (!hasKey(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

/**
 * Stable sort by position in an order list. Upstream's comparator answers "less" whenever either element is missing
 * from the order list; that is inconsistent, so for those inputs the outcome depends on Go's sort.SliceStable, which
 * is an insertion sort for up to 20 elements — reproduced here (for longer lists Go's block merge may differ).
 */
function sortByOrder(items: unknown[], position: (item: unknown) => number): unknown[] {
  const keyed = items.map((item) => ({ item, at: position(item) }));
  if (keyed.every((k) => k.at >= 0)) return keyed.sort((a, b) => a.at - b.at).map((k) => k.item);
  const less = (a: { at: number }, b: { at: number }): boolean => (a.at >= 0 && b.at >= 0 ? a.at < b.at : true);
  for (let i = 1; i < keyed.length; i++) {
    for (let j = i; j > 0 && less(keyed[j], keyed[j - 1]); j--) {
      [keyed[j], keyed[j - 1]] = [keyed[j - 1], keyed[j]];
    }
  }
  return keyed.map((k) => k.item);
}

/** Sorts `toSort` by `order`; for maps, `$patch: delete` entries go last unsorted (upstream's normalizeSliceOrder). */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  let keep = toSort;
  let deletions: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    keep = toSort.filter((item) => (item as Record<string, unknown>)[PATCH_DIRECTIVE] !== 'delete');
    deletions = toSort.filter((item) => (item as Record<string, unknown>)[PATCH_DIRECTIVE] === 'delete');
  }
  return [...sortByOrder(keep, positions(order, mergeKey, kind)), ...deletions];
}

/**
 * Interleaves the server-only items (`left`) into the patch items (`right`), both already sorted, keeping each side's
 * relative order: a server-only item goes first only when the live list has it before the patch item in hand; patch
 * items the live list does not know are emitted as soon as they come up.
 */
function mergeSortedSlices(
  left: unknown[],
  right: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const position = positions(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const l = position(left[i]);
      const r = position(right[j]);
      out.push(l >= 0 && r >= 0 && l < r ? left[i++] : right[j++]);
    }
  }
  return out;
}

/**
 * Final order of a merged list (upstream's normalizeElementOrder): the patch items follow `patchOrder` (the patch list
 * or `$setElementOrder`), the server-only items keep their order in the live list, and the two are interleaved.
 */
export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const sortedPatch = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const sortedServer = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlices(sortedServer, sortedPatch, serverOrder, mergeKey, kind);
}

/** Index of the first map in `list` whose `key` equals `value`; every element visited must be a map. */
export function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isMap(item)) throw new StrategicMergePatchError(`value for key ${i} is not a map`);
    if (hasKey(item, key) && item[key] === value) return i;
  }
  return -1;
}

/** Splits `items` into those present in `by` and the rest, each in its original order. */
export function partitionByPresence(items: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const present: unknown[] = [];
  const absent: unknown[] = [];
  if (!mergeKey) {
    const inBy = new Set(by);
    for (const item of items) (inBy.has(item) ? present : absent).push(item);
    return [present, absent];
  }
  for (const item of items) {
    if (!isMap(item)) throw badArgType(mapTypeName, item);
    if (!hasKey(item, mergeKey)) throw noMergeKey(item, mergeKey);
    (findByKey(by, mergeKey, item[mergeKey]) >= 0 ? present : absent).push(item);
  }
  return [present, absent];
}
