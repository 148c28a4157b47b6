import { newResourceExpired, newTooLargeResourceVersion, toStatus, type KubeObject } from '@kapi/apimachinery';
import { isStorageError, type KeyValue, type StorageBackend, type StorageWatch, type StorageWatchEvent } from '@kapi/storage';
import { decodeFromStorage, type StoredObjectNormalizer } from '../storage/codec.js';
import { atResourceVersion, deepFreeze, type CacheEvent } from './cache-event.js';
import { ResourceCache } from './resource-cache.js';
import type { CacheWatcher } from './watcher.js';

export interface WatchCacheOptions {
  /** Events kept per collection at most (kube's watch cache capacity); the compaction interval bounds them too. */
  historyCapacity?: number;
  /**
   * Stored bytes of the events kept, over every collection (default 128 MiB): beyond it the oldest events go, and
   * a watch from before them gets 410 Gone, as when the window is exceeded by count.
   */
  historyBytes?: number;
  /** ListFromCacheSnapshot: Exact and continued reads of a past revision are served from the cache (default on). */
  listFromCacheSnapshot?: boolean;
  /** How long (ms) such snapshots are kept (kube: 75 s); older revisions are read from storage. */
  snapshotRetentionMs?: number;
  /** How long (ms) a read at a resourceVersion the cache has not reached waits for it before 504 (kube: 3 s). */
  freshnessWaitMs?: number;
  /** How often (ms) watchers that asked for bookmarks get one (kube: about a minute). */
  bookmarkIntervalMs?: number;
  /** Live events buffered per watcher before a slow one is ended. */
  maxQueuedPerWatcher?: number;
  /**
   * kube's `--min-request-timeout` (1800 s): a watch without timeoutSeconds ends after this to twice this many
   * seconds, and the client re-watches.
   */
  minRequestTimeoutSeconds?: number;
}

const DEFAULTS: Required<WatchCacheOptions> = {
  historyCapacity: 100_000,
  historyBytes: 128 * 1024 * 1024,
  listFromCacheSnapshot: true,
  snapshotRetentionMs: 75_000,
  freshnessWaitMs: 3_000,
  bookmarkIntervalMs: 60_000,
  maxQueuedPerWatcher: 10_000,
  minRequestTimeoutSeconds: 1800,
};

/** Every collection lives under this storage prefix; one storage watch on it feeds every collection's cache. */
const ROOT = '/registry/';
/** Objects read per storage page while filling; the fill yields between pages so requests are served meanwhile. */
const LIST_PAGE = 10_000;
/** How often a read waiting for the cache to catch up asks storage for a progress notification. */
const PROGRESS_REQUEST_MS = 100;

export interface WatchCache {
  readonly options: Required<WatchCacheOptions>;
  /** Whether the cache holds the state (it is filled at start, and again after its storage watch failed). */
  readonly ready: boolean;
  /** The storage revision the cache has caught up with. */
  readonly revision: number;
  /** The cache of one collection (by its key prefix). */
  collection(prefix: string): ResourceCache;
  /**
   * Caches one more collection while the server runs (a resource installed later: a CustomResourceDefinition's).
   * Resolves once the collection holds storage's state, caught up with the cache's revision; counted, so a prefix
   * added twice (the versions of a kind share one) stays until removed twice.
   */
  addCollection(prefix: string): Promise<void>;
  /** Forgets a collection added with addCollection once every adder removed it; its watchers end. */
  removeCollection(prefix: string): void;
  /**
   * Reads a collection again from storage (its objects are decoded anew: the defaults of a changed kind apply); its
   * watchers end and its history starts over, as when kube recreates a resource's storage. Resolves once filled.
   */
  refreshCollection(prefix: string): Promise<void>;
  /** Fills the cache and starts following storage; resolves once ready. Idempotent. */
  start(): Promise<void>;
  /** Resolves true once the cache is ready, false after `timeoutMs`. */
  whenReady(timeoutMs: number): Promise<boolean>;
  /** Resolves true once the cache has caught up with `revision`, false after `timeoutMs`. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean>;
  /**
   * For a "Not older than" read: resolves true once the cache is ready and has reached `revision` (waiting up to
   * `freshnessWaitMs` for each), false when the cache is not ready (the caller reads storage instead), and fails
   * with 504 Too large resource version when the cache is ready but does not reach it in time.
   */
  reach(revision: number): Promise<boolean>;
  /**
   * For a consistent read: reads storage's current revision and waits until the cache has caught up with it.
   * `caughtUp` is false when the cache is not ready or does not catch up in time (the caller reads storage, or
   * fails); `target` is the revision it waited for (0 when the cache was not ready).
   */
  catchUp(): Promise<{ caughtUp: boolean; target: number }>;
  /**
   * For a consistent read without waiting: whether the cache is ready and already holds storage's current revision.
   * Only asked of storage that knows its revision without I/O (StorageBackend.localRevision); false otherwise.
   * Synchronous when storage tells its revision synchronously (StorageBackend.revisionNow).
   */
  isCurrent(): boolean | Promise<boolean>;
  /** Whether the state at `revision` (not newer than the cache) can be rebuilt from the cache: a retained snapshot. */
  hasSnapshot(collection: ResourceCache, revision: number): boolean;
  /** Storage history was compacted up to `revision`: the caches forget what storage forgot. */
  compacted(revision: number): void;
  /**
   * Registers a watcher on a collection (call it in the same turn as reading the state or backlog it starts from).
   * `bookmark` builds the BOOKMARK object for a revision; without it the watcher gets no periodic bookmarks.
   */
  addWatcher(collection: ResourceCache, watcher: CacheWatcher, bookmark?: (rv: number) => unknown): void;
  removeWatcher(collection: ResourceCache, watcher: CacheWatcher): void;
  stop(): void;
}

/**
 * The watch cache in front of storage (k8s.io/apiserver's cacher): the current state of every collection and a
 * window of recent events, fed by one storage watch on the whole key space, so its revision is storage's. It serves
 * "Any" and "Not older than" reads, snapshots for Exact reads, watches from any revision in the window, and fans
 * each event out to every watcher (see CacheWatcher).
 */
export function createWatchCache(
  storage: StorageBackend,
  prefixes: Iterable<string>,
  userOptions: WatchCacheOptions = {},
  log: (level: number, message: string) => void = () => {},
  normalize?: StoredObjectNormalizer,
  /** Told the stored bytes of every change the cache sees (the storage history budget counts them). */
  onWrite?: (revision: number, bytes: number) => void,
): WatchCache {
  const options = { ...DEFAULTS, ...userOptions };
  const caches = new Map<string, ResourceCache>();
  for (const p of prefixes) if (!caches.has(p)) caches.set(p, new ResourceCache(p, options.historyCapacity));
  /** How many adders each collection added later has (the ones given at creation are never removed). */
  const added = new Map<string, number>();
  const permanent = new Set(caches.keys());
  /**
   * Collections being filled while the cache follows storage: the storage events they get meanwhile, applied once
   * the fill's state is in (those after its revision).
   */
  const filling = new Map<ResourceCache, StorageWatchEvent[]>();
  /** Collections added while the cache did not follow storage, filled when it does again. */
  const unfilled = new Set<ResourceCache>();
  let revision = 0;
  let ready = false;
  let stopped = false;
  let starting: Promise<void> | undefined;
  let watch: StorageWatch | undefined;
  let bookmarkTimer: ReturnType<typeof setInterval> | undefined;
  /** Revisions the cache reached, with when, for the snapshot retention; `snapshotFloor` is the oldest still kept. */
  const reached: [at: number, rv: number][] = [];
  let snapshotFloor = 0;
  const revisionWaiters = new Set<{ revision: number; resolve(ok: boolean): void }>();
  const readyWaiters = new Set<(ok: boolean) => void>();
  const watchers = new Map<CacheWatcher, ((rv: number) => unknown) | undefined>();

  /** The collection a key belongs to: `/registry/<resource>/...` or `/registry/<group>/<resource>/...`. */
  const route = (key: string): ResourceCache | undefined => {
    const first = key.indexOf('/', ROOT.length);
    if (first < 0) return undefined;
    const core = caches.get(key.slice(0, first + 1));
    if (core) return core;
    const second = key.indexOf('/', first + 1);
    return second < 0 ? undefined : caches.get(key.slice(0, second + 1));
  };

  /**
   * Writes outside the cache's keys (another server's prefix on the same etcd) move the revision without an event.
   * While reads wait, storage is asked for progress — one request per interval for all of them, as kube's
   * progress requester does — until the cache learns it caught up.
   */
  let progressTimer: ReturnType<typeof setInterval> | undefined;
  const requestProgress = () => {
    if (progressTimer || !watch?.requestProgress) return;
    watch.requestProgress();
    progressTimer = setInterval(() => {
      if (!revisionWaiters.size || stopped) {
        clearInterval(progressTimer);
        progressTimer = undefined;
        return;
      }
      watch?.requestProgress?.();
    }, PROGRESS_REQUEST_MS);
    progressTimer.unref?.();
  };

  /** Wakes the reads waiting for a revision the cache has reached (while it is ready). */
  const wakeWaiters = () => {
    if (!ready) return;
    for (const w of revisionWaiters) {
      if (w.revision <= revision) {
        revisionWaiters.delete(w);
        w.resolve(true);
      }
    }
  };

  const advance = (rv: number) => {
    if (rv <= revision) return;
    revision = rv;
    const now = Date.now();
    // One entry per 100 ms is precise enough: a later revision in the same entry only makes the floor later, so
    // snapshots err towards storage reads, never towards serving a revision the cache no longer has.
    const last = reached[reached.length - 1];
    if (last && now - last[0] < 100) last[1] = rv;
    else reached.push([now, rv]);
    while (reached.length && reached[0][0] < now - options.snapshotRetentionMs) snapshotFloor = reached.shift()![1];
    wakeWaiters();
  };

  const decode = (kv: KeyValue): KubeObject | undefined => {
    try {
      return deepFreeze(decodeFromStorage(kv, normalize));
    } catch (err) {
      log(1, `watch cache: ${(err as Error).message}`);
      return undefined;
    }
  };

  /** Whether `cached` is the state `kv` stored (the same revision of its key). */
  const holds = (cached: KubeObject | undefined, kv: KeyValue): cached is KubeObject =>
    !!cached && (cached.metadata as { resourceVersion?: string }).resourceVersion === String(kv.modRevision);

  /**
   * A storage change as the cache's event. A value that cannot be decoded (written around the API) never enters
   * the cache: a corrupt new value removes the key (watchers see it DELETED, at the write's version), and a corrupt
   * old value is replaced by what the cache held, so the cache never keeps what storage no longer has.
   */
  const toCacheEvent = (cache: ResourceCache, e: StorageWatchEvent): CacheEvent | undefined => {
    const key = e.kv.key;
    const rv = e.kv.modRevision;
    const cached = cache.get(key);
    // The state the change replaced is what the cache holds when that is the same revision (nothing to decode).
    const prev = (e.prevKv && !holds(cached, e.prevKv) && decode(e.prevKv)) || cached;
    if (e.type === 'DELETE') {
      if (!cached && !prev) return undefined;
      return { type: 'DELETED', key, obj: decode(e.kv) ?? atResourceVersion((prev ?? cached)!, rv), prev, rv };
    }
    const obj = decode(e.kv);
    if (!obj) return cached ? { type: 'DELETED', key, obj: atResourceVersion(cached, rv), prev: cached, rv } : undefined;
    return { type: prev ? 'MODIFIED' : 'ADDED', key, obj, prev, rv };
  };

  /** Forgets the oldest events, whichever collection they are in, until the history fits its byte budget. */
  const trimHistory = () => {
    let total = 0;
    for (const c of caches.values()) total += c.historyBytes;
    while (total > options.historyBytes) {
      let oldest: ResourceCache | undefined;
      for (const c of caches.values()) if (c.firstRv !== undefined && (!oldest || c.firstRv < oldest.firstRv!)) oldest = c;
      if (!oldest) return;
      const before = oldest.historyBytes;
      oldest.forgetThrough(oldest.firstRv!);
      total -= before - oldest.historyBytes;
    }
  };

  const onEvent = (e: StorageWatchEvent) => {
    const cache = route(e.kv.key);
    const pending = cache && filling.get(cache);
    if (pending) pending.push(e);
    const event = cache && !pending && toCacheEvent(cache, e);
    if (event) {
      event.bytes = e.kv.value.length + (e.prevKv?.value.length ?? 0);
      cache.apply(event);
      if (event.bytes) trimHistory();
    }
    onWrite?.(e.kv.modRevision, e.kv.value.length);
    advance(e.kv.modRevision);
  };

  /**
   * Fills the cache: the state at the oldest revision storage still holds, then (through the storage watch) every
   * change since. The history thus reaches back as far as storage's does, so a client that listed from storage
   * before the cache was ready, or from the previous run of the server, can still watch from what it saw.
   */
  const fill = async () => {
    const known = new Set(caches.values());
    const byCache = new Map<ResourceCache, [string, KubeObject][]>();
    let startKey: string | undefined;
    const current = await storage.currentRevision();
    let at = current > 0 ? Math.min(await storage.compactedRevision(), current) : 0;
    for (;;) {
      if (stopped) return;
      const page = await storage.list({ prefix: ROOT, startKey, limit: LIST_PAGE, revision: at || undefined });
      at = page.revision;
      for (const kv of page.kvs) {
        const cache = route(kv.key);
        if (!cache) continue;
        let objects = byCache.get(cache);
        if (!objects) byCache.set(cache, (objects = []));
        // A corrupt value stays out of the cache (lists served from it leave it out); a get of it without a
        // resourceVersion reads storage and fails with 500.
        const obj = decode(kv);
        if (obj) objects.push([kv.key, obj]);
      }
      if (!page.more || !page.kvs.length) break;
      startKey = `${page.kvs[page.kvs.length - 1].key}\u0000`;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Collections added while the pages were read missed the earlier ones: each reads its own prefix at `at`.
    for (let late = lateCaches(known); late.length; late = lateCaches(known)) {
      for (const cache of late) {
        known.add(cache);
        byCache.set(cache, await listPrefix(cache.prefix, at));
      }
    }
    // Nobody may watch across a refill: its history starts over. (Watches only start while the cache is ready.)
    const gone = toStatus(newResourceExpired('the watch cache was refilled; watch again'));
    for (const w of [...watchers.keys()]) w.end(gone);
    filling.clear();
    unfilled.clear();
    for (const cache of caches.values()) cache.reset(at, byCache.get(cache) ?? []);
    revision = 0;
    reached.length = 0;
    snapshotFloor = at;
    advance(at);
    follow();
    log(2, `watch cache ready at revision ${at}`);
  };

  const lateCaches = (known: ReadonlySet<ResourceCache>) => [...caches.values()].filter((c) => !known.has(c));

  /** The decodable objects under one collection prefix at a revision, page by page. */
  const listPrefix = async (prefix: string, at: number): Promise<[string, KubeObject][]> => {
    const objects: [string, KubeObject][] = [];
    let startKey: string | undefined;
    for (;;) {
      const page = await storage.list({ prefix, startKey, limit: LIST_PAGE, revision: at || undefined });
      for (const kv of page.kvs) {
        const obj = decode(kv);
        if (obj) objects.push([kv.key, obj]);
      }
      if (!page.more || !page.kvs.length) return objects;
      startKey = `${page.kvs[page.kvs.length - 1].key}\u0000`;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  /**
   * Fills a collection added while the cache follows storage: its state at the cache's revision, then the events
   * it was sent meanwhile. A refill of the whole cache on the way (filling cleared) already gave it its state.
   */
  const fillCollection = async (cache: ResourceCache) => {
    const events: StorageWatchEvent[] = [];
    filling.set(cache, events);
    const at = revision;
    try {
      const objects = await listPrefix(cache.prefix, at);
      if (filling.get(cache) !== events) return;
      cache.reset(at, objects);
    } finally {
      if (filling.get(cache) === events) filling.delete(cache);
    }
    for (const e of events) {
      if (e.kv.modRevision <= at) continue;
      const event = toCacheEvent(cache, e);
      if (event) cache.apply({ ...event, bytes: e.kv.value.length + (e.prevKv?.value.length ?? 0) });
    }
  };

  /** Follows storage from the cache's revision on; a failure restarts it. */
  const follow = () => {
    if (stopped) return;
    watch = storage.watch({ prefix: ROOT, afterRevision: revision }, { onEvent, onError: restart, onProgress: advance });
    ready = true;
    for (const cache of unfilled) void fillCollection(cache).catch((err: Error) => restart(err));
    unfilled.clear();
    for (const resolve of readyWaiters) resolve(true);
    readyWaiters.clear();
    wakeWaiters();
  };

  /**
   * The storage watch failed (storage unreachable, or the cache fell behind compaction). Every watcher ends with
   * an ERROR event, so clients re-watch; reads go to storage meanwhile. Then the cache follows storage again from
   * where it stopped, keeping its history, or — when storage no longer has that revision — fills again.
   */
  function restart(error: Error, refill = isStorageError(error, 'Compacted')) {
    ready = false;
    watch = undefined;
    const status = toStatus(error);
    for (const w of [...watchers.keys()]) w.end(status);
    if (stopped) return;
    log(1, `watch cache: storage failed (${error.message}); ${refill ? 'filling again' : 'following it again'} when it is back`);
    const retry = (delay: number) =>
      setTimeout(() => {
        if (stopped) return;
        const attempt = refill ? fill() : storage.currentRevision().then(follow);
        (starting = attempt).catch((err: Error) => {
          log(1, `watch cache: storage not back yet (${err.message}); retrying`);
          retry(Math.min(delay * 2, 5_000));
        });
      }, delay).unref?.();
    retry(100);
  }

  const sendBookmarks = () => {
    for (const [w, bookmark] of watchers) if (bookmark && revision > w.lastRv) w.bookmark(bookmark(revision), revision);
  };

  return {
    options,
    get ready() {
      return ready;
    },
    get revision() {
      return revision;
    },
    collection(prefix) {
      const cache = caches.get(prefix);
      if (!cache) throw new Error(`no watch cache for ${prefix}`);
      return cache;
    },
    async addCollection(prefix) {
      added.set(prefix, (added.get(prefix) ?? 0) + 1);
      if (caches.has(prefix)) return;
      const cache = new ResourceCache(prefix, options.historyCapacity);
      caches.set(prefix, cache);
      // Not following storage yet: the first fill reads it with everything else; after a failure, following again does.
      if (ready) await fillCollection(cache);
      else if (starting) unfilled.add(cache);
    },
    removeCollection(prefix) {
      if (permanent.has(prefix)) return;
      const count = (added.get(prefix) ?? 0) - 1;
      if (count > 0) {
        added.set(prefix, count);
        return;
      }
      added.delete(prefix);
      const cache = caches.get(prefix);
      if (!cache) return;
      caches.delete(prefix);
      filling.delete(cache);
      for (const w of [...watchers.keys()]) if (cache.subscribers.has(w)) w.end();
    },
    async refreshCollection(prefix) {
      const cache = caches.get(prefix);
      if (!cache || !ready) return;
      for (const w of [...watchers.keys()]) if (cache.subscribers.has(w)) w.end();
      cache.filled = false;
      await fillCollection(cache);
    },
    start() {
      if (!starting) {
        // A first fill that fails (storage not reachable yet) is retried like a refill after a failed watch. It
        // starts on a later turn: a synchronous backend (SQLite) would otherwise read its first page right here.
        starting = new Promise((resolve) => setImmediate(resolve)).then(fill).catch((err: Error) => {
          if (!ready) restart(err, true);
          throw err;
        });
        bookmarkTimer ??= setInterval(sendBookmarks, options.bookmarkIntervalMs);
        bookmarkTimer.unref?.();
      }
      return starting;
    },
    whenReady(timeoutMs) {
      if (ready) return Promise.resolve(true);
      void this.start().catch(() => {});
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          readyWaiters.delete(done);
          resolve(ok);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        readyWaiters.add(done);
      });
    },
    waitFor(target, timeoutMs) {
      if (ready && target <= revision) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          revision: target,
          resolve: (ok: boolean) => {
            clearTimeout(timer);
            revisionWaiters.delete(waiter);
            resolve(ok);
          },
        };
        const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
        revisionWaiters.add(waiter);
        requestProgress();
      });
    },
    async reach(target) {
      if (!(await this.whenReady(options.freshnessWaitMs))) return false;
      if (await this.waitFor(target, options.freshnessWaitMs)) return true;
      if (!ready) return false;
      throw newTooLargeResourceVersion(target, revision, 1);
    },
    async catchUp() {
      if (!ready) return { caughtUp: false, target: 0 };
      const target = await storage.currentRevision();
      const caughtUp = (await this.waitFor(target, options.freshnessWaitMs)) && ready;
      return { caughtUp, target };
    },
    isCurrent() {
      if (!ready || !storage.localRevision) return false;
      if (storage.revisionNow) return revision >= storage.revisionNow();
      return storage.currentRevision().then((current) => revision >= current);
    },
    hasSnapshot(collection, rv) {
      return options.listFromCacheSnapshot && ready && rv <= revision && rv >= collection.oldestRv && rv >= snapshotFloor;
    },
    compacted(rv) {
      // Storage keeps revision `rv` itself readable: watches after rv - 1 still start.
      for (const cache of caches.values()) cache.forgetThrough(rv - 1);
    },
    addWatcher(collection, watcher, bookmark) {
      collection.subscribers.add(watcher);
      watchers.set(watcher, bookmark);
    },
    removeWatcher(collection, watcher) {
      collection.subscribers.delete(watcher);
      watchers.delete(watcher);
    },
    stop() {
      stopped = true;
      ready = false;
      if (bookmarkTimer) clearInterval(bookmarkTimer);
      if (progressTimer) clearInterval(progressTimer);
      watch?.stop();
      for (const w of [...watchers.keys()]) w.end();
      // Requests waiting for the cache are answered now (as not ready), not when their wait times out: their timers
      // would otherwise keep a stopped server's process alive for seconds.
      for (const done of [...readyWaiters]) done(false);
      for (const waiter of [...revisionWaiters]) waiter.resolve(false);
    },
  };
}
