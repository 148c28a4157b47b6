import { newResourceExpired, newTooLargeResourceVersion, newTooManyRequests, toStatus, type KubeObject } from '@kapi/apimachinery';
import type { CacheEvent } from '../cacher/cache-event.js';
import { CacheWatcher, type WatcherEvent } from '../cacher/watcher.js';
import { selects } from '../registry/list.js';
import { parseResourceVersion, validateListOptions, type ListOptions } from '../registry/list-options.js';
import { apiVersionOf, collectionPrefix } from '../registry/resources.js';
import type { RequestContext, Store } from '../registry/store.js';
import { frameOnce, type WatchEncoder } from './watch-framing.js';

export interface WatchRequest {
  ctx: RequestContext;
  options: ListOptions;
  /** Single-object watch (`/pods/NAME?watch=1`). */
  name?: string;
  signal: AbortSignal;
  /** The WatchList feature gate: streaming lists (`sendInitialEvents`). */
  watchList: boolean;
  /** Turns an event's object into a Table row, for clients that asked for tables (undefined: the object itself). */
  renderTable?(obj: KubeObject, first: boolean): unknown;
  /** Frames events in the negotiated media type. */
  encoder: WatchEncoder;
}

/** Node's timers hold at most this many milliseconds (about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** kube's answer while its watch cache is not ready: 429 with Retry-After, so the client tries again. */
const initializing = () => newTooManyRequests('storage is (re)initializing', 1);

/** The annotation on the bookmark that ends a streaming list's initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * A watch served by the watch cache, per the spec's watch table: resourceVersion unset (a consistent start) or "0"
 * opens with synthetic ADDED events for the state, then every later change; another value starts at exactly that
 * version, replayed from the cache's history (410 as an ERROR event when the history no longer reaches back).
 * With `sendInitialEvents` (WatchList) the state is followed by a BOOKMARK annotated initial-events-end. An object
 * that stops matching a selector is sent as DELETED, and one that starts matching as ADDED, as kube's cache does.
 */
export async function startWatch(store: Store, req: WatchRequest): Promise<ReadableStream<Uint8Array>> {
  const { ctx, options } = req;
  const { entry } = ctx;
  validateListOptions(options, 'watch', req.watchList);
  const rv = parseResourceVersion(options.resourceVersion);
  const cache = store.cache;
  if (!cache || !(await cache.whenReady(cache.options.freshnessWaitMs))) throw initializing();
  const collection = cache.collection(entry.keyPrefix);
  const prefix = collectionPrefix(entry, ctx.namespace);

  // What the watch starts with: the state (synthetic ADDED), or the history after a version.
  const withState = options.sendInitialEvents ?? (rv === undefined || rv === 0);
  if (rv === undefined) {
    // "Most recent": the cache must have caught up with storage before the state it sends counts as current.
    const { caughtUp, target } = await cache.catchUp();
    if (!caughtUp && !cache.ready) throw initializing();
    if (!caughtUp) throw newTooLargeResourceVersion(target, cache.revision, 1);
  } else if (rv > 0 && withState && !(await cache.reach(rv))) {
    throw initializing();
  }

  const namespace = entry.info.scope === 'Namespaced' ? ctx.namespace : '';
  const matches = (obj: KubeObject) => {
    const meta = obj.metadata as { name?: string; namespace?: string };
    return (!namespace || meta.namespace === namespace) && (!req.name || meta.name === req.name) && selects(entry, options, obj);
  };
  const bookmarkObject = (revision: number, annotations?: Record<string, string>) => ({
    kind: entry.info.kind,
    apiVersion: apiVersionOf(entry.info),
    metadata: { resourceVersion: String(revision), ...(annotations ? { annotations } : {}) },
  });
  let first = true;
  const frame = (event: WatcherEvent): Uint8Array => {
    const { type, object } = event;
    if (type === 'ERROR' || type === 'BOOKMARK') return req.encoder.encode(type, object);
    if (req.renderTable) {
      const row = req.renderTable(object as KubeObject, first);
      first = false;
      return req.encoder.encode(type, row);
    }
    return event.live ? frameOnce(req.encoder, type, object as object) : req.encoder.encode(type, object);
  };

  // The cache may have gone down while this request waited: never start from a state it no longer follows.
  if (!cache.ready) throw initializing();
  // From here to addWatcher nothing awaits: the state or backlog read and the subscription are one moment.
  const initial: WatcherEvent[] = [];
  let backlog: CacheEvent[] = [];
  let afterRv: number;
  let tooOld = false;
  if (withState) {
    for (const obj of collection.list({ prefix, limit: 0, selects: matches }).items) initial.push({ type: 'ADDED', object: obj });
    afterRv = cache.revision;
    if (options.sendInitialEvents && options.allowWatchBookmarks) {
      initial.push({ type: 'BOOKMARK', object: bookmarkObject(afterRv, { [INITIAL_EVENTS_END]: 'true' }) });
    }
  } else {
    afterRv = rv ? rv : cache.revision;
    const events = collection.eventsAfter(afterRv, prefix);
    if (events) backlog = events;
    else tooOld = true;
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher: CacheWatcher = new CacheWatcher({
    matches,
    afterRv,
    initial,
    frame,
    maxQueued: cache.options.maxQueuedPerWatcher,
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
  cache.addWatcher(collection, watcher, options.allowWatchBookmarks ? (revision) => bookmarkObject(revision) : undefined);
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
      if (options.allowWatchBookmarks) watcher.bookmark(bookmarkObject(Math.max(cache.revision, afterRv)), cache.revision);
      watcher.end();
    }, Math.min(seconds * 1000, MAX_TIMER_MS));
    timer.unref?.();
  }
  return watcher.stream;
}
