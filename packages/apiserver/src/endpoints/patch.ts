import { cloneJson, getOwn, newBadRequest, newInvalid, newUnsupportedMediaType, setOwn, StatusError, StatusReasons, type FieldPatchMeta, type KubeObject } from '@kapi/apimachinery';
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
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return cloneJson(patch);
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, mergePatch(getOwn(out, key), value));
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
  return applyJsonPatch(current, patch as fastJsonPatch.Operation[], gk, name);
}

/** fast-json-patch's errors for a patch document that is malformed (kube: decoding the patch fails, 400). */
const MALFORMED = new Set([
  'SEQUENCE_NOT_AN_ARRAY', 'OPERATION_NOT_AN_OBJECT', 'OPERATION_OP_INVALID', 'OPERATION_PATH_INVALID', 'OPERATION_FROM_REQUIRED',
  'OPERATION_VALUE_REQUIRED', 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED',
]);

/** Whether a JSON pointer names a key its (existing) parent object lacks: kube's `replace` then adds it. */
function missingObjectKey(doc: unknown, pointer: string): boolean {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!parts.length) return false;
  let node: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(part)];
    else node = getOwn(node, part);
  }
  return !!node && typeof node === 'object' && !Array.isArray(node) && !Object.hasOwn(node, parts[parts.length - 1]);
}

/**
 * RFC 6902 JSON Patch with the semantics of kube's library (evanphx/json-patch v4): `replace` of a key an object
 * lacks adds it; a patch that cannot be applied (a missing path to remove, a move into its own child, a path
 * through `__proto__`...) is 422 with kube's generic message and the reason as a cause; a failed `test` is 422; a
 * malformed operation is 400. Nothing is applied unless every operation is.
 */
function applyJsonPatch(current: KubeObject, ops: fastJsonPatch.Operation[], gk: { group: string; kind: string }, name: string): KubeObject {
  let doc: unknown = cloneJson(current);
  try {
    ops.forEach((op, index) => {
      const effective = op && op.op === 'replace' && typeof op.path === 'string' && missingObjectKey(doc, op.path) ? { ...op, op: 'add' as const } : op;
      doc = fastJsonPatch.applyOperation(doc, effective, true, true, true, index).newDocument;
    });
  } catch (err) {
    const { name: code, message } = err as Error;
    if (MALFORMED.has(code)) throw newBadRequest(`the JSON patch is not valid: ${message.split('\n')[0]}`);
    if (code === 'TEST_OPERATION_FAILED') {
      throw newInvalid(gk, name, [{ type: 'FieldValueInvalid', field: '', message: `the test operation failed: ${message.split('\n')[0]}` }]);
    }
    throw patchNotApplicable(message.split('\n')[0]);
  }
  return doc as KubeObject;
}

/** kube's answer to a patch that cannot be applied (NewGenericServerResponse 422): the reason as a cause. */
function patchNotApplicable(reason: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422, reason: StatusReasons.Invalid,
    message: 'the server rejected our request due to an error in our request',
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: reason }] },
  });
}
