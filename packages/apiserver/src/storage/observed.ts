import type { ListOptions, StorageBackend } from '@kapi/storage';

/** A request to the backend, as kube's storage metrics name them. */
export type StorageOperation = 'get' | 'list' | 'listWithCount' | 'create' | 'update' | 'delete';

/**
 * Told as each request to the backend begins (a list with its options); what it returns is told once as the request
 * ends, with whether it failed and why.
 */
export type StorageRequestHook = (operation: StorageOperation, key: string, list?: ListOptions) => (failed: boolean, error?: unknown) => void;

/**
 * The backend with `begin` told about each of its reads and writes (the storage metrics and the storage spans are
 * such hooks); watches, compaction and the rest pass through.
 */
export function observedStorage(backend: StorageBackend, begin: StorageRequestHook): StorageBackend {
  const observed = <T>(end: (failed: boolean, error?: unknown) => void, call: Promise<T>): Promise<T> =>
    call.then(
      (value) => {
        end(false);
        return value;
      },
      (err: unknown) => {
        end(true, err);
        throw err;
      },
    );
  // `begin` runs before the call is made (arguments are evaluated in order), so the call is timed whole.
  return {
    currentRevision: () => backend.currentRevision(),
    ...(backend.localRevision ? { localRevision: true } : {}),
    ...(backend.revisionNow ? { revisionNow: () => backend.revisionNow!() } : {}),
    get: (key, options) => observed(begin('get', key), backend.get(key, options)),
    list: (options) => observed(begin('list', options.prefix, options), backend.list(options)),
    count: (prefix) => observed(begin('listWithCount', prefix), backend.count(prefix)),
    create: (key, value) => observed(begin('create', key), backend.create(key, value)),
    update: (key, value, expected) => observed(begin('update', key), backend.update(key, value, expected)),
    delete: (key, expected) => observed(begin('delete', key), backend.delete(key, expected)),
    watch: (options, handlers) => backend.watch(options, handlers),
    compact: (revision) => backend.compact(revision),
    compactedRevision: () => backend.compactedRevision(),
    ...(backend.sizeBytes ? { sizeBytes: () => backend.sizeBytes!() } : {}),
    close: () => backend.close(),
  };
}
