import { newBadRequest, newUnsupportedMediaType, newInvalid, type KubeObject } from '@kapi/apimachinery';
import fastJsonPatch from 'fast-json-patch';
import { parseMediaTypes } from './negotiate.js';

export type PatchType = 'json' | 'merge';

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
};

/** The patch types served so far; strategic merge and apply patches come with the writes work. */
export const ACCEPTED_PATCH_TYPES = Object.keys(PATCH_TYPES);

export function patchTypeOf(contentType: string | null): PatchType {
  const [range] = parseMediaTypes(contentType);
  const type = range ? PATCH_TYPES[`${range.type}/${range.subtype}`] : undefined;
  if (!type) throw newUnsupportedMediaType(ACCEPTED_PATCH_TYPES);
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

/** Applies a patch body to the current object; a failed JSON Patch `test` (or any bad operation) changes nothing. */
export function applyPatch(type: PatchType, current: KubeObject, patch: unknown, gk: { group: string; kind: string }, name: string): KubeObject {
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
