import { isStorageError, type StorageBackend } from '@kapi/storage';

/**
 * A value a plugin keeps in the server's storage beside the resources (kube's `/registry/ranges/servicenodeports`
 * bitmap): shared by every server on that storage, changed only by compare-and-swap, never served, watched or
 * cached.
 */
export interface StoredValue {
  /** The value now, read from storage; undefined while none was written. */
  get(): Promise<Uint8Array | undefined>;
  /**
   * kube's GuaranteedUpdate on the value: `change` gets the current value and returns the one to store (undefined:
   * leave it as it is); when another writer got there first, it is called again with the newer value. Resolves
   * with the value that stands. What `change` throws ends the update and rejects it.
   */
  update(change: (current: Uint8Array | undefined) => Uint8Array | undefined): Promise<Uint8Array | undefined>;
}

const ROOT = '/registry/';

/** The StoredValue at `/registry/<path>`; `path` must not be a resource's (it holds no object). */
export function storedValue(storage: StorageBackend, path: string): StoredValue {
  if (!path || path.startsWith('/') || path.endsWith('/')) throw new Error(`a stored value's path is relative and names one key: ${JSON.stringify(path)}`);
  const key = ROOT + path;
  return {
    async get() {
      return (await storage.get(key)).kv?.value;
    },
    async update(change) {
      for (;;) {
        const { kv } = await storage.get(key);
        const next = change(kv?.value);
        if (next === undefined) return kv?.value;
        try {
          if (kv) await storage.update(key, next, kv.modRevision);
          else await storage.create(key, next);
          return next;
        } catch (err) {
          // Another writer changed (or created, or deleted) it since it was read: try again on what is there now.
          if (!isStorageError(err, 'Conflict') && !isStorageError(err, 'KeyExists') && !isStorageError(err, 'KeyNotFound')) throw err;
        }
      }
    },
  };
}
