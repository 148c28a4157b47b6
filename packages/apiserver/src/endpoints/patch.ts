import { newBadRequest, newUnsupportedMediaType, newInvalid, type FieldPatchMeta, type KubeObject } from '@kapi/apimachinery';
import { applyStrategicMergePatch, patchMetaLookup, StrategicMergePatchError } from '../patch/strategic/index.js';
import fastJsonPatch from 'fast-json-patch';
import { parseMediaTypes } from './negotiate.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply' | 'apply-cbor';

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply-cbor',
};

/**
 * The patch type a Content-Type names. Strategic merge patches only for groups that declare them (kube's
 * built-in types), elsewhere 415 as kube answers them for custom resources; CBOR apply only with the CBOR gate.
 */
export function patchTypeOf(contentType: string | null, options: { strategic?: boolean; cbor?: boolean } = {}): PatchType {
  const [range] = parseMediaTypes(contentType);
  const offered = (t: PatchType) => (t !== 'strategic' || !!options.strategic) && (t !== 'apply-cbor' || !!options.cbor);
  const type = range ? PATCH_TYPES[`${range.type}/${range.subtype}`] : undefined;
  if (!type || !offered(type)) throw newUnsupportedMediaType(Object.keys(PATCH_TYPES).filter((t) => offered(PATCH_TYPES[t])));
  return type;
}

/** RFC 7386 JSON Merge Patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/**
 * Applies a patch body to the current object; a failed JSON Patch `test` (or any bad operation) changes nothing.
 * Strategic merge patches use the resource's patch metadata (merge keys, strategies, directives).
 */
export function applyPatch(
  type: PatchType,
  current: KubeObject,
  patch: unknown,
  gk: { group: string; kind: string },
  name: string,
  patchMeta: Record<string, FieldPatchMeta> = {},
): KubeObject {
  if (type === 'strategic') {
    if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw newBadRequest('the strategic merge patch must be a JSON object');
    try {
      return applyStrategicMergePatch(current, patch as Record<string, unknown>, patchMetaLookup(patchMeta)) as KubeObject;
    } catch (err) {
      if (!(err instanceof StrategicMergePatchError)) throw err;
      if (err.code === 422) throw newInvalid(gk, name, [{ type: 'FieldValueInvalid', field: '', message: err.message }]);
      throw newBadRequest(err.message);
    }
  }
  if (type === 'merge') {
    if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw newBadRequest('the merge patch must be a JSON object');
    return mergePatch(current, patch) as KubeObject;
  }
  if (!Array.isArray(patch)) throw newBadRequest('the JSON patch must be an array of operations');
  const error = fastJsonPatch.validate(patch as fastJsonPatch.Operation[], current);
  if (error) {
    if (error.name === 'TEST_OPERATION_FAILED') {
      throw newInvalid(gk, name, [{ type: 'FieldValueInvalid', field: '', message: `the test operation failed: ${error.message}` }]);
    }
    throw newBadRequest(`the JSON patch is not valid: ${error.message}`);
  }
  try {
    return fastJsonPatch.applyPatch(structuredClone(current), patch as fastJsonPatch.Operation[], true, false).newDocument;
  } catch (err) {
    throw newInvalid(gk, name, [{ type: 'FieldValueInvalid', field: '', message: (err as Error).message }]);
  }
}
