import type { KeyValue, StorageBackend, StorageWatchEvent } from '@kapi/storage';
import { markUnreadable } from '../storage/unreadable.js';
import type { ValueTransformer } from './transformer.js';

const encoder = new TextEncoder();

/**
 * A storage backend whose values pass through a transformer per key (kube's storage value.Transformer, which sits
 * in its etcd3 store): writes store what the key's transformer makes of the bytes, and every read (get, list,
 * watch events with their previous values) gives the bytes back, so the registry, the watch cache and storage
 * watches only ever see objects. The backend keeps seeing opaque bytes and knows nothing of the transformation.
 *
 * The storage key is the authenticated data. A value read with a transformer that is not the writing one is
 * marked `stale`; a value no transformer reads is handed on marked unreadable (storage/unreadable.ts), which the
 * codec reports as a corrupt object. Keys `transformerFor` has no transformer for pass through untouched.
 */
export function transformingBackend(backend: StorageBackend, transformerFor: (key: string) => ValueTransformer | undefined): StorageBackend {
  const fromStorage = (kv: KeyValue): KeyValue => {
    const transformer = transformerFor(kv.key);
    if (!transformer) return kv;
    try {
      const { data, stale } = transformer.fromStorage(kv.value, encoder.encode(kv.key));
      return stale ? { ...kv, value: data, stale } : { ...kv, value: data };
    } catch (err) {
      return markUnreadable({ ...kv }, (err as Error).message);
    }
  };
  const toStorage = (key: string, value: Uint8Array): Uint8Array => {
    const transformer = transformerFor(key);
    return transformer ? transformer.toStorage(value, encoder.encode(key)) : value;
  };
  // What the caller wrote comes back as it gave it, not as it was stored.
  const written = (kv: KeyValue, value: Uint8Array): KeyValue => ({ ...kv, value });
  const event = (e: StorageWatchEvent): StorageWatchEvent => ({
    ...e,
    kv: fromStorage(e.kv),
    ...(e.prevKv ? { prevKv: fromStorage(e.prevKv) } : {}),
  });

  return {
    currentRevision: () => backend.currentRevision(),
    ...(backend.localRevision ? { localRevision: true } : {}),
    ...(backend.revisionNow ? { revisionNow: () => backend.revisionNow!() } : {}),
    async get(key, options) {
      const result = await backend.get(key, options);
      return result.kv ? { ...result, kv: fromStorage(result.kv) } : result;
    },
    async list(options) {
      const result = await backend.list(options);
      return { ...result, kvs: result.kvs.map(fromStorage) };
    },
    count: (prefix) => backend.count(prefix),
    async create(key, value) {
      return written(await backend.create(key, toStorage(key, value)), value);
    },
    async update(key, value, expectedModRevision) {
      return written(await backend.update(key, toStorage(key, value), expectedModRevision), value);
    },
    async delete(key, expectedModRevision) {
      return fromStorage(await backend.delete(key, expectedModRevision));
    },
    watch(options, handlers) {
      return backend.watch(options, { ...handlers, onEvent: (e) => handlers.onEvent(event(e)) });
    },
    compact: (revision) => backend.compact(revision),
    compactedRevision: () => backend.compactedRevision(),
    ...(backend.sizeBytes ? { sizeBytes: () => backend.sizeBytes!() } : {}),
    close: () => backend.close(),
  };
}
