import { cloneJson } from '@kapi/apimachinery';
import { DELETE, newKeyExistsError, newKeyNotFoundError, sameBytes } from '@kapi/storage';
import { encodeForStorage } from './codec.js';
import type { ObjectStorage } from './interfaces.js';

/**
 * kube's DryRunnableStorage: the same storage with writes that run every step but the last. A dry-run create
 * fails as the real one would when the key is taken; a dry-run update computes the new object from the stored one
 * and returns it unwritten; a dry-run delete returns the object as it is. Reads and watches are the storage's.
 */
export function dryRunnable(storage: ObjectStorage): (dryRun: boolean) => ObjectStorage {
  const dry: ObjectStorage = {
    ...storage,
    async create(key, obj) {
      if (await storage.get(key)) throw newKeyExistsError(key);
      return obj;
    },
    async guaranteedUpdate(key, tryUpdate, options = {}) {
      const current = await storage.get(key);
      if (!current && !options.ignoreNotFound) throw newKeyNotFoundError(key);
      const next = await tryUpdate(current ? cloneJson(current) : undefined);
      if (next === DELETE) {
        if (!current) throw newKeyNotFoundError(key);
        return { deleted: current };
      }
      // Written exactly when storage would write it: when the stored bytes would change (tryUpdate may change the
      // object it was given in place, so identity says nothing).
      if (current && sameBytes(encodeForStorage(next), encodeForStorage(current))) return { obj: current, created: false, written: false };
      return { obj: next, created: !current, written: true };
    },
    async forceDelete() {},
  };
  return (dryRun) => (dryRun ? dry : storage);
}
