import { newInternalError, type KubeObject, type StatusError } from '@kapi/apimachinery';
import type { KeyValue } from '@kapi/storage';

const encoder = new TextEncoder();
// Fatal: bytes that are not UTF-8 are no JSON document, so they are a corrupt object rather than text to guess at.
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * How objects are stored: JSON without metadata.resourceVersion (the storage revision is the resource version,
 * as in kube's etcd3 store). Decoding stamps the key's mod revision back in. Every backend stores these bytes
 * unchanged (memory: as given; SQLite: the `value` BLOB; etcd: the key's value).
 */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  const meta = { ...(obj.metadata as Record<string, unknown>) };
  delete meta.resourceVersion;
  return encoder.encode(JSON.stringify({ ...obj, metadata: meta }));
}

/**
 * The object stored in `kv`. Bytes that do not decode to an object with metadata (not UTF-8, not JSON, not a
 * JSON object) throw the corrupt-object error: a 500 InternalError naming the key (see {@link corruptObjectKey}).
 */
export function decodeFromStorage(kv: KeyValue): KubeObject {
  let obj: unknown;
  try {
    obj = JSON.parse(decoder.decode(kv.value));
  } catch (err) {
    throw newCorruptObjectError(kv.key, err instanceof Error ? err.message : String(err));
  }
  const meta = isRecord(obj) ? obj.metadata : undefined;
  if (!isRecord(meta)) throw newCorruptObjectError(kv.key, 'it is not a JSON object with metadata');
  meta.resourceVersion = String(kv.modRevision);
  return obj as KubeObject;
}

const corruptKey = Symbol.for('kapi.apiserver.corruptObjectKey');

/**
 * kube's corrupt-object error (storage.CorruptObjError) as the API sees it: 500 InternalError, "key: K, corrupt
 * object: ...". Marked so the deletion path can tell it apart from other internal errors.
 */
export function newCorruptObjectError(key: string, reason: string): StatusError {
  const error = newInternalError(new Error(`key: ${key}, corrupt object: the stored object could not be decoded: ${reason}`));
  Object.defineProperty(error, corruptKey, { value: key });
  return error;
}

/** The storage key of a corrupt-object error from {@link decodeFromStorage}; undefined for any other error. */
export function corruptObjectKey(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? ((err as Record<symbol, string | undefined>)[corruptKey] ?? undefined) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
