import { newTooLargeResourceVersion, newTooManyRequests, type KubeObject } from '@kapi/apimachinery';
import { guaranteedUpdate, isStorageError, type KeyValue, type StorageBackend, type StorageCodec } from '@kapi/storage';
import { decodeFromStorage, encodeForStorage, type StoredObjectNormalizer } from './codec.js';
import type { ListPage, ListRequest, ObjectStorage, TryUpdate, UpdateOutcome } from './interfaces.js';


/** Keys read from storage per page of a list. */
export const STORAGE_PAGE = 2_000;

/** kube's answer while no watch cache can serve a watch: 429 with Retry-After, so the client tries again. */
export const storageInitializing = () => newTooManyRequests('storage is (re)initializing', 1);

/**
 * Objects over a key-value backend (kube's etcd3 store): JSON bytes without resourceVersion, the key's mod
 * revision stamped back on read. Every read goes to the backend; watches need the watch cache in front.
 */
export function createObjectStorage(backend: StorageBackend, normalize?: StoredObjectNormalizer): ObjectStorage {
  const decode = (kv: KeyValue) => decodeFromStorage(kv, normalize);
  const codec: StorageCodec<KubeObject> = { decode, encode: encodeForStorage };
  return {
    async create(key, obj) {
      return decode(await backend.create(key, encodeForStorage(obj)));
    },

    async get(key) {
      const { kv } = await backend.get(key);
      return kv ? decode(kv) : undefined;
    },

    getList: (request) => listBackend(backend, request, decode),

    async guaranteedUpdate(key: string, tryUpdate: TryUpdate, options = {}): Promise<UpdateOutcome> {
      let last: KubeObject | undefined;
      let lastRevision = 0;
      const result = await guaranteedUpdate(backend, key, codec, async (current, kv) => {
        last = current;
        lastRevision = kv?.modRevision ?? 0;
        return tryUpdate(current);
      }, { ignoreNotFound: options.ignoreNotFound });
      if ('deleted' in result) {
        return { deleted: { ...last!, metadata: { ...last!.metadata, resourceVersion: String(result.deleted.modRevision) } } };
      }
      return { obj: result.obj, created: result.created, written: result.kv.modRevision !== lastRevision };
    },

    async forceDelete(key) {
      await backend.delete(key);
    },

    async watch() {
      throw storageInitializing();
    },
  };
}

/**
 * A page read from the backend: at the plan's revision for Exact reads, at the current one otherwise (which must
 * not be older than a Not-older-than read's revision: 504 Too large resource version).
 */
async function listBackend(backend: StorageBackend, req: ListRequest, decode: (kv: KeyValue) => KubeObject): Promise<ListPage> {
  const plan = req.plan;
  let revision = plan.mode === 'exact' ? plan.revision : 0;
  const notOlderThan = plan.mode === 'notOlderThan' ? plan.revision : 0;
  const items: KubeObject[] = [];
  let startKey = req.startKey;
  let more = false;
  let remaining = 0;
  let lastKey = '';
  try {
    for (let first = true; ; first = false) {
      // Pages of at most STORAGE_PAGE, all at the first page's revision, with a turn of the event loop between
      // them: a big list read from storage does not hold up other requests.
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      const pageLimit = req.limit ? Math.min(req.limit, STORAGE_PAGE) : STORAGE_PAGE;
      const page = await backend.list({ prefix: req.prefix, startKey, limit: pageLimit, revision: revision || undefined });
      revision = page.revision;
      if (revision < notOlderThan) throw newTooLargeResourceVersion(notOlderThan, revision, 1);
      let consumed = 0;
      for (const kv of page.kvs) {
        lastKey = kv.key;
        consumed++;
        const obj = decode(kv);
        if (req.select(obj)) items.push(obj);
        if (req.limit && items.length >= req.limit) break;
      }
      // With selectors the limit can be reached inside a page; the rest of that page is still to come.
      more = page.more || consumed < page.kvs.length;
      remaining = page.remaining + (page.kvs.length - consumed);
      if ((req.limit && items.length >= req.limit) || !page.more) break;
      startKey = `${lastKey}\u0000`;
    }
  } catch (err) {
    if (isStorageError(err, 'TooLargeRevision')) throw newTooLargeResourceVersion(revision, await backend.currentRevision(), 1);
    throw err;
  }
  return { items, revision, lastKey, more, remaining };
}
