import { setOwn, StatusError, StatusReasons, type KubeObject } from '@kapi/apimachinery';
import type { KeyValue } from '@kapi/storage';
import { unreadableReason } from './unreadable.js';
import { ENCRYPTED_DATA_ERROR, isEncrypted } from '../encryption/identity.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * How objects are stored: JSON without metadata.resourceVersion (the storage revision is the resource version,
 * as in kube's etcd3 store). Decoding stamps the key's mod revision back in.
 */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  // Most writes carry no resourceVersion by now (a create never does): nothing to leave out, nothing to copy.
  if (obj.metadata && !Object.hasOwn(obj.metadata, 'resourceVersion')) return encoder.encode(JSON.stringify(obj));
  // A copy without it (built key by key: deleting a property would slow JSON.stringify down on that object).
  const source = obj.metadata as Record<string, unknown>;
  const meta: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (key !== 'resourceVersion') setOwn(meta, key, source[key]);
  return encoder.encode(JSON.stringify({ ...obj, metadata: meta }));
}

/**
 * A stored value that cannot be decoded (kube's corrupt-object storage error, surfaced as a 500 InternalError).
 * It is what a normal delete fails with, and what the unsafe forced deletion looks for.
 */
export class CorruptObjectError extends StatusError {
  constructor(readonly key: string, cause: string) {
    const message = `Internal error occurred: StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${cause}`;
    super({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message,
      reason: StatusReasons.InternalError, details: { causes: [{ message }] }, code: 500,
    });
  }
}

// ObjectMeta's fields after resourceVersion, in Go's order: resourceVersion goes before the first of them.
const AFTER_RESOURCE_VERSION = new Set(['generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields']);

/** The stored metadata with its resourceVersion where Go writes it (after uid), not at the end. */
function withResourceVersion(meta: Record<string, unknown>, resourceVersion: string): Record<string, unknown> {
  if (Object.hasOwn(meta, 'resourceVersion')) {
    meta.resourceVersion = resourceVersion;
    return meta;
  }
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(meta)) {
    if (!placed && AFTER_RESOURCE_VERSION.has(key)) {
      out.resourceVersion = resourceVersion;
      placed = true;
    }
    setOwn(out, key, meta[key]);
  }
  if (!placed) out.resourceVersion = resourceVersion;
  return out;
}

/**
 * What the server does to every object it reads from storage (kube decodes with defaulting): fills in the defaults
 * an object written by an older server lacks. Given the storage key; mutates the object.
 */
export type StoredObjectNormalizer = (key: string, obj: KubeObject) => void;

export function decodeFromStorage(kv: KeyValue, normalize?: StoredObjectNormalizer): KubeObject {
  const unreadable = unreadableReason(kv);
  if (unreadable !== undefined) throw new CorruptObjectError(kv.key, unreadable);
  let obj: KubeObject;
  try {
    obj = JSON.parse(decoder.decode(kv.value)) as KubeObject;
  } catch (err) {
    // kube's identity transformer names an encrypted value read without its encryption configuration.
    throw new CorruptObjectError(kv.key, isEncrypted(kv.value) ? ENCRYPTED_DATA_ERROR : (err as Error).message);
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj) || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new CorruptObjectError(kv.key, 'the stored value is not an object with metadata');
  }
  obj.metadata = withResourceVersion(obj.metadata as Record<string, unknown>, String(kv.modRevision));
  normalize?.(kv.key, obj);
  return obj;
}
