import {
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  parallelListField,
  PATCH_DIRECTIVE,
  RETAIN_KEYS_DIRECTIVE,
  SET_ELEMENT_ORDER_PREFIX,
} from './directives.js';
import { applySetElementOrder } from './element-order.js';
import { badPatchType, badPrimitiveList } from './errors.js';
import { goKind, goValue } from './goformat.js';
import { fieldPath, fieldStrategy, mergeListField, type MergeContext } from './field.js';
import { getKey, hasKey, isMap, setKey, type JsonMap } from './json.js';
import { DROP, newMap, newValue } from './new-value.js';
import { applyRetainKeys } from './retain-keys.js';

function setOrDrop(target: JsonMap, key: string, value: unknown): void {
  if (value === DROP) delete target[key];
  else setKey(target, key, value);
}

/** Merges one patch entry into `target` (the loop body of upstream's mergeMap). */
function mergeField(
  context: MergeContext,
  target: JsonMap,
  key: string,
  patchValue: unknown,
  path: string,
  isDeleteList: boolean,
): void {
  if (patchValue === undefined) return;
  if (patchValue === null) {
    delete target[key];
    return;
  }
  if (isDeleteList && !Array.isArray(patchValue)) {
    throw badPrimitiveList(`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/${key} must be a list, got ${goValue(patchValue)}`);
  }
  const childPath = fieldPath(path, key);
  const live = getKey(target, key);
  // Nothing to merge with (absent, or a different JSON type): the patch value becomes the content; a deletion list
  // then has nothing to delete from.
  if (live === undefined || goKind(live) !== goKind(patchValue)) {
    if (!isDeleteList) setOrDrop(target, key, newValue(patchValue));
    return;
  }
  if (isMap(live)) {
    const { strategy } = fieldStrategy(context, childPath);
    const patchMap = patchValue as JsonMap;
    setOrDrop(target, key, strategy === 'replace' ? newMap(patchMap) : context.mergeMap(live, patchMap, childPath));
  } else if (Array.isArray(live)) {
    setKey(target, key, mergeListField(context, live, patchValue as unknown[], childPath, isDeleteList));
  } else if (!isDeleteList) {
    setKey(target, key, patchValue);
  }
}

/**
 * Merges `patch` into `original` (which it mutates and returns), in upstream's order: a `$patch` directive on the
 * map, `$retainKeys`, `$setElementOrder` lists, the plain keys, and finally `$deleteFromPrimitiveList` lists — after
 * the keys so that a deletion always wins over a union sent in the same patch.
 */
export function mergeMap(context: MergeContext, original: JsonMap, patch: JsonMap, path: string): JsonMap {
  if (hasKey(patch, PATCH_DIRECTIVE)) {
    const directive = patch[PATCH_DIRECTIVE];
    if (directive === 'delete') return {};
    if (directive !== 'replace') throw badPatchType(directive, patch);
    return newMap(patch) as JsonMap;
  }
  applyRetainKeys(original, patch);
  const consumed = applySetElementOrder(context, original, patch, path);
  const deletions: [string, unknown][] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === RETAIN_KEYS_DIRECTIVE || key.startsWith(SET_ELEMENT_ORDER_PREFIX) || consumed.has(key)) continue;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      deletions.push([parallelListField(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX), value]);
      continue;
    }
    mergeField(context, original, key, value, path, false);
  }
  for (const [field, value] of deletions) mergeField(context, original, field, value, path, true);
  return original;
}
