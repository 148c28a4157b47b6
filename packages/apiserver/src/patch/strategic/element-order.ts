import { parallelListField, PATCH_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX } from './directives.js';
import { badArgType, badSetElementOrder, noMergeKey, StrategicMergePatchError } from './errors.js';
import { goValue, mapTypeName, sliceTypeName } from './goformat.js';
import { fieldPath, fieldStrategy, mergeListField, type MergeContext } from './field.js';
import { getKey, hasKey, isMap, setKey, type JsonMap } from './json.js';
import { elementKind, sliceElementKind } from './list.js';
import { newList } from './new-value.js';
import { normalizeElementOrder, partitionByPresence } from './order.js';

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  if (!isMap(left)) throw badArgType(mapTypeName, left);
  if (!isMap(right)) throw badArgType(mapTypeName, right);
  if (!hasKey(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

/** The patch list's elements (deletions and `$patch` markers aside) must appear in `order`, in the same order. */
function validatePatchWithOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let elements = patchList;
  if (mergeKey) {
    for (const element of patchList) if (!isMap(element)) throw badArgType(mapTypeName, element);
    elements = patchList.filter((element) => (element as JsonMap)[PATCH_DIRECTIVE] !== 'delete');
  }
  let p = 0;
  let o = 0;
  while (p < elements.length && o < order.length) {
    const element = elements[p];
    if (isMap(element) && hasKey(element, PATCH_DIRECTIVE)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(element, order[o], mergeKey)) p++;
    o++;
  }
  if (p < elements.length && o >= order.length) {
    throw new StrategicMergePatchError(
      `The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goValue(order)}\n`,
    );
  }
}

/**
 * Processes every `$setElementOrder/<field>` of one patch map (upstream's mergePatchIntoOriginal): merges the field's
 * patch list into the live list, then orders the result — listed items as in the directive, server-only items where
 * the live list had them. Mutates `original`; returns the fields it consumed so the caller does not merge them again.
 */
export function applySetElementOrder(context: MergeContext, original: JsonMap, patch: JsonMap, path: string): Set<string> {
  const consumed = new Set<string>();
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX) || order === undefined) continue;
    if (!Array.isArray(order)) throw badSetElementOrder(`${key} must be a list, got ${goValue(order)}`);
    const field = parallelListField(key, SET_ELEMENT_ORDER_PREFIX);
    const listPath = fieldPath(path, field);
    const liveValue = getKey(original, field);
    // A null live list is treated as absent: kube would have decoded it away before storing the object.
    const hasLive = liveValue !== undefined && liveValue !== null;
    const hasPatch = hasKey(patch, field);
    const patchValue = getKey(patch, field);
    if (hasLive && !Array.isArray(liveValue)) throw badArgType(sliceTypeName, liveValue);
    if (hasPatch && !Array.isArray(patchValue)) throw badArgType(sliceTypeName, patchValue);
    const live = hasLive ? (liveValue as unknown[]) : [];
    const patchList = hasPatch ? (patchValue as unknown[]) : [];
    const { mergeKey } = fieldStrategy(context, listPath);
    validatePatchWithOrder(patchList, order, mergeKey);
    if (!hasLive && !hasPatch) continue;

    consumed.add(field);
    let merged: unknown[];
    if (!hasPatch) merged = live;
    else if (!hasLive) merged = newList(patchList);
    else merged = mergeListField(context, live, patchList, listPath, false);
    if (live.length === 0 && patchList.length === 0) {
      // Upstream fails here ("no elements in any of the given slices"); an empty list has no order to set.
      setKey(original, field, merged);
      continue;
    }
    const kind = elementKind(sliceElementKind(live, patchList));
    const [listed, serverOnly] = partitionByPresence(merged, order, mergeKey);
    setKey(original, field, normalizeElementOrder(listed, serverOnly, order, live, mergeKey, kind));
  }
  return consumed;
}
