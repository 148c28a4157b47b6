import { cloneJson, type FieldPatchMeta } from '@kapi/apimachinery';
import { badJSONDoc } from './errors.js';
import type { MergeContext, PatchMetaLookup } from './field.js';
import { isMap } from './json.js';
import { mergeMap } from './map.js';

/**
 * Applies a strategic merge patch (`application/strategic-merge-patch+json`) to an object, with the semantics of
 * k8s.io/apimachinery's strategicpatch.StrategicMergeMapPatch that `kubectl apply` (client-side), `kubectl edit` and
 * `kubectl patch --type strategic` rely on. `meta` gives each field's patchStrategy and patchMergeKey by dotted path
 * (see {@link patchMetaLookup}). Pure: neither input is mutated and the result shares no objects with them.
 *
 * @throws StrategicMergePatchError when the patch is malformed; its `code` is the status kube-apiserver would answer.
 */
export function applyStrategicMergePatch(
  original: Record<string, unknown>,
  patch: Record<string, unknown>,
  meta: PatchMetaLookup,
): Record<string, unknown> {
  if (!isMap(original) || !isMap(patch)) throw badJSONDoc();
  const context: MergeContext = {
    meta,
    mergeMap: (live, patchMap, path) => mergeMap(context, live, patchMap, path),
  };
  return mergeMap(context, cloneJson(original), patch, '');
}

/** A lookup over a resource's generated `ResourceInfo.patchMeta`. */
export function patchMetaLookup(patchMeta: Readonly<Record<string, FieldPatchMeta>>): PatchMetaLookup {
  return (path) => (Object.hasOwn(patchMeta, path) ? patchMeta[path] : undefined);
}
