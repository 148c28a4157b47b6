import type { FieldPatchMeta } from '@kapi/apimachinery';
import { parsePatchStrategy, type ParsedStrategy } from './directives.js';
import type { JsonMap } from './json.js';
import { mergeList } from './list.js';
import { newList } from './new-value.js';

/** Patch metadata by dotted field path from the object root; list elements add no segment. */
export type PatchMetaLookup = (path: string) => FieldPatchMeta | undefined;

export interface MergeContext {
  meta: PatchMetaLookup;
  mergeMap(original: JsonMap, patch: JsonMap, path: string): JsonMap;
}

export function fieldPath(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

export interface FieldStrategy extends ParsedStrategy {
  mergeKey: string;
}

export function fieldStrategy(context: MergeContext, path: string): FieldStrategy {
  const meta = context.meta(path);
  return { ...parsePatchStrategy(meta?.patchStrategy), mergeKey: meta?.patchMergeKey ?? '' };
}

/**
 * Upstream's mergeSliceHandler: lists with strategy `merge` (and every `$deleteFromPrimitiveList` list) are merged,
 * any other list is replaced by the patch.
 */
export function mergeListField(
  context: MergeContext,
  original: unknown[],
  patch: unknown[],
  path: string,
  isDeleteList: boolean,
): unknown[] {
  const { strategy, mergeKey } = fieldStrategy(context, path);
  if (strategy !== 'merge' && !isDeleteList) return newList(patch);
  return mergeList(original, patch, {
    mergeKey,
    isDeleteList,
    path,
    mergeElement: (live, element) => context.mergeMap(live, element, path),
  });
}
