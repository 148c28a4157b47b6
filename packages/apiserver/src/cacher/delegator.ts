import { newResourceExpired, newTooLargeResourceVersion, toStatus, type KubeObject } from '@kapi/apimachinery';
import { isPromise } from '../maybe.js';
import { parseResourceVersion } from '../registry/list-options.js';
import type { ListPage, ListRequest, ObjectStorage, WatchRequest } from '../storage/interfaces.js';
import { storageInitializing } from '../storage/object-storage.js';
import type { CacheEvent } from './cache-event.js';
import type { WatchCache } from './cacher.js';
import { CacheWatcher, type WatcherEvent } from './watcher.js';

/** Node's timers hold at most this many milliseconds (about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The annotation on the bookmark that ends a streaming list's initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * The watch cache in front of storage (k8s.io/apiserver storage/cacher/delegator.go): one place decides, for each
 * read, whether the cache serves it, storage does, or it waits and fails with 504, per kube's resource version tables (docs/lists-and-watches.md):
 * - get: unset → the cache when it already holds storage's current revision and has the object (storage that knows
 *   its revision without I/O), else storage (Most recent); "0" → the cache as it is; another value → the cache once
 *   it reached it ("0" reads storage while the cache is not ready);
 * - list: Most recent → the cache once caught up with storage, else storage; Any → the cache when ready;
 *   Not older than → as get; Exact and continuations → a cache snapshot when one is retained, else storage;
 * - watch: always the cache (429 while it is not ready), started from its state or its history.
 * Writes go to storage; the cache follows them through its storage watch.
 */
/** Keys a cached list examines before it lets the event loop turn. */
export const SCAN_SLICE = 2_000;

export function createCacheDelegator(storage: ObjectStorage, cache: WatchCache): ObjectStorage {
  return {
    ...storage,

    async get(key, options = {}) {
      const rv = parseResourceVersion(options.resourceVersion ?? '');
      if (!options.keyPrefix) return storage.get(key, options);
      if (rv === undefined) {
        // Most recent: from the cache when it already holds storage's current state (storage that knows its revision
        // without I/O), which is what storage would answer. Anything the cache lacks is read from storage: an object
        // written a moment ago, and one the cache left out because it does not decode (the read fails with 500).
        const collection = cache.collection(options.keyPrefix);
        const current = collection.filled && cache.isCurrent();
        if (isPromise(current) ? await current : current) {
          const cached = collection.get(key);
          if (cached) return cached;
        }
        return storage.get(key, options);
      }
      // Any ("0") does not wait for a cache that is not ready: storage answers (as kube's resilient initialization);
      // a ready cache answers it at once (it has reached revision 0).
      if (rv === 0 ? !cache.ready : !(await cache.reach(rv))) return storage.get(key, options);
      const collection = cache.collection(options.keyPrefix);
      return collection.filled ? collection.get(key) : storage.get(key, options);
    },

    async getList(req: ListRequest): Promise<ListPage> {
      const { plan } = req;
      const collection = cache.collection(req.keyPrefix);
      // A collection added while the cache follows storage is read from storage until it is filled. (Before the
      // cache is first ready no collection is: the plans below wait for it or go to storage as they always do.)
      if (cache.ready && !collection.filled) return storage.getList(plan.mode === 'any' ? { ...req, plan: { mode: 'consistent' } } : req);
      /**
       * The page from the cache, selected in slices of SCAN_SLICE keys with a turn of the event loop between them, so
       * a long selection (a big collection, a heavy selector) does not hold up other requests. Every slice reads
       * the collection as of the revision the list started at (a cache snapshot); should the history no longer
       * reach back to it, the page is read from storage at that revision.
       */
      const fromCache = async (snapshot?: number): Promise<ListPage> => {
        const revision = snapshot ?? cache.revision;
        const items: KubeObject[] = [];
        let startKey = req.startKey;
        for (let first = true; ; first = false) {
          const page = collection.list({
            prefix: req.prefix, startKey, limit: req.limit && req.limit - items.length, at: first ? snapshot : revision, selects: req.select, scan: SCAN_SLICE,
          });
          items.push(...page.items);
          if (!page.partial) return { items, lastKey: page.lastKey, more: page.more, remaining: page.remaining, revision };
          await new Promise((resolve) => setImmediate(resolve));
          if (revision < collection.oldestRv) return storage.getList({ ...req, plan: { mode: 'exact', revision } });
          startKey = `${page.lastKey}\u0000`;
        }
      };
      switch (plan.mode) {
        case 'consistent':
          return (await cache.catchUp()).caughtUp ? fromCache() : storage.getList(req);
        case 'any':
          return cache.ready ? fromCache() : storage.getList({ ...req, plan: { mode: 'consistent' } });
        case 'notOlderThan':
          return (await cache.reach(plan.revision)) ? fromCache() : storage.getList(req);
        case 'exact':
          if (cache.ready && plan.revision > cache.revision) await cache.waitFor(plan.revision, cache.options.freshnessWaitMs);
          return cache.hasSnapshot(collection, plan.revision) ? fromCache(plan.revision) : storage.getList(req);
      }
    },

    watch: (req) => watchCache(cache, req),
  };
}

/**
 * A watch served by the watch cache, per kube's watch table (docs/lists-and-watches.md): resourceVersion unset (a consistent start) or "0"
 * opens with synthetic ADDED events for the state, then every later change; another value starts at exactly that
 * version, replayed from the cache's history (410 as an ERROR event when the history no longer reaches back).
 * With `sendInitialEvents` (WatchList) the state is followed by a BOOKMARK annotated initial-events-end. An object
 * that stops matching a selector is sent as DELETED, and one that starts matching as ADDED, as kube's cache does.
 */
async function watchCache(cache: WatchCache, req: WatchRequest): Promise<ReadableStream<Uint8Array>> {
  const { options } = req;
  const rv = parseResourceVersion(options.resourceVersion);
  if (!(await cache.whenReady(cache.options.freshnessWaitMs))) throw storageInitializing();
  const collection = cache.collection(req.keyPrefix);

  // What the watch starts with: the state (synthetic ADDED), or the history after a version.
  const withState = options.sendInitialEvents ?? (rv === undefined || rv === 0);
  if (rv === undefined) {
    // "Most recent": the cache must have caught up with storage before the state it sends counts as current.
    const { caughtUp, target } = await cache.catchUp();
    if (!caughtUp && !cache.ready) throw storageInitializing();
    if (!caughtUp) throw newTooLargeResourceVersion(target, cache.revision, 1);
  } else if (rv > 0 && withState && !(await cache.reach(rv))) {
    throw storageInitializing();
  }

  // The cache may have gone down while this request waited: never start from a state it no longer follows.
  if (!cache.ready || !collection.filled) throw storageInitializing();
  // From here to addWatcher nothing awaits: the state or backlog read and the subscription are one moment.
  const initial: WatcherEvent[] = [];
  let backlog: CacheEvent[] = [];
  let afterRv: number;
  let tooOld = false;
  if (withState) {
    for (const obj of collection.list({ prefix: req.prefix, limit: 0, selects: req.matches }).items) {
      initial.push({ type: 'ADDED', object: obj as KubeObject });
    }
    afterRv = cache.revision;
    if (options.sendInitialEvents && options.allowWatchBookmarks) {
      initial.push({ type: 'BOOKMARK', object: req.bookmark(afterRv, { [INITIAL_EVENTS_END]: 'true' }) });
    }
  } else {
    afterRv = rv ? rv : cache.revision;
    const events = collection.eventsAfter(afterRv, req.prefix);
    if (events) backlog = events;
    else tooOld = true;
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher: CacheWatcher = new CacheWatcher({
    matches: req.matches,
    afterRv,
    initial,
    frame: req.frame,
    maxQueued: cache.options.maxQueuedPerWatcher,
    // A watcher holds no more than the history may: what it has not sent yet, at most the history's byte budget.
    maxQueuedBytes: cache.options.historyBytes,
    onEnd: () => {
      clearTimeout(timer);
      req.signal.removeEventListener('abort', abort);
      cache.removeWatcher(collection, watcher);
    },
  });
  const abort = () => watcher.end();
  if (tooOld) {
    // kube's cacher answers 200 and an ERROR event; clients relist and watch again.
    watcher.end(toStatus(newResourceExpired(`too old resource version: ${rv} (${collection.oldestRv + 1})`)));
    return watcher.stream;
  }
  cache.addWatcher(collection, watcher, options.allowWatchBookmarks ? (revision) => req.bookmark(revision) : undefined);
  // History replayed to a resuming client is not held against the slow-client limit.
  watcher.replay(backlog);
  if (req.signal.aborted) {
    watcher.end();
    return watcher.stream;
  }
  req.signal.addEventListener('abort', abort, { once: true });
  // Without timeoutSeconds a watch still ends, like kube's, after --min-request-timeout to twice that (randomized so
  // that clients do not all re-watch at once); the client re-watches from its last version.
  const min = cache.options.minRequestTimeoutSeconds;
  const seconds = options.timeoutSeconds || (min > 0 ? min * (1 + Math.random()) : 0);
  if (seconds > 0) {
    timer = setTimeout(() => {
      // A bookmark as the stream ends lets the client resume from the newest version, even if nothing changed.
      if (options.allowWatchBookmarks) watcher.bookmark(req.bookmark(Math.max(cache.revision, afterRv)), cache.revision);
      watcher.end();
    }, Math.min(seconds * 1000, MAX_TIMER_MS));
    timer.unref?.();
  }
  return watcher.stream;
}
