import type { KubeObject } from '@kapi/apimachinery';
import { isDeepFrozen } from '../../cacher/cache-event.js';

/** The most JSON kept for shared objects, in bytes. */
const BUDGET = 16 * 1024 * 1024;
/** One object's JSON is kept only when it is smaller than this. */
const MAX_KEPT = BUDGET / 16;

/** UTF-8 JSON of shared objects (with kube's closing newline), oldest first. Strong references: bounded by BUDGET. */
const kept = new Map<object, Buffer>();
let held = 0;

/**
 * The UTF-8 JSON of a watch cache object (deep-frozen: it never changes) with kube's closing newline, encoded once
 * and reused while it stays among the most recently encoded: a GET or LIST of objects that did not change costs
 * no encoding.
 */
function sharedJson(value: object): Buffer {
  let bytes = kept.get(value);
  if (bytes !== undefined) return bytes;
  bytes = Buffer.from(JSON.stringify(value) + '\n');
  if (bytes.length >= MAX_KEPT) return bytes;
  kept.set(value, bytes);
  held += bytes.length;
  for (const [old, oldBytes] of kept) {
    if (held <= BUDGET) break;
    kept.delete(old);
    held -= oldBytes.length;
  }
  return bytes;
}

/**
 * The compact JSON of `value` with kube's closing newline: a watch cache object's kept UTF-8 bytes (sharedJson),
 * anything else (which may change) encoded now, as text.
 */
export function jsonBody(value: unknown): string | Uint8Array {
  return isDeepFrozen(value) ? sharedJson(value as object) : JSON.stringify(value) + '\n';
}

const OPEN = Buffer.from('{');

/**
 * One item of a list as its JSON is written among the list's items (no closing newline), as byte ranges to write
 * in a row. A typed list's item (`typed`: kube's typed lists carry the kind once, on the list) goes without its
 * kind and apiVersion: for a watch cache object whose JSON starts with them, that is its kept JSON after them.
 */
export function listItemJson(item: KubeObject, typed: boolean): Uint8Array[] {
  if (!isDeepFrozen(item)) return [Buffer.from(JSON.stringify(typed ? withoutTypeMeta(item) : item))];
  const bytes = sharedJson(item);
  const end = bytes.length - 1;
  if (!typed) return [bytes.subarray(0, end)];
  const skip = typeMetaPrefix(item, bytes);
  if (skip === 0) return [Buffer.from(JSON.stringify(withoutTypeMeta(item)))];
  return [OPEN, bytes.subarray(skip, end)];
}

/**
 * How many bytes of `json` (the object's JSON) are its opening brace, apiVersion and kind and the comma after them,
 * when it starts with those two fields in either order and has more; 0 otherwise.
 */
function typeMetaPrefix(item: KubeObject, json: Buffer): number {
  if (item.apiVersion === undefined || item.kind === undefined) return 0;
  const apiVersion = `"apiVersion":${JSON.stringify(item.apiVersion)}`;
  const kind = `"kind":${JSON.stringify(item.kind)}`;
  for (const prefix of [`{${apiVersion},${kind},`, `{${kind},${apiVersion},`]) {
    const length = Buffer.byteLength(prefix);
    if (json.length > length + 2 && json.toString('utf8', 0, length) === prefix) return length;
  }
  return 0;
}

/** An item of a typed list, without its kind and apiVersion. */
export function withoutTypeMeta(item: KubeObject): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = item;
  return rest as KubeObject;
}
