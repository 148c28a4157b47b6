import type { KubeObject, WatchEventType } from '@kapi/apimachinery';
import type { DELETE } from '@kapi/storage';

/**
 * How a read is served, per kube's resource version tables (docs/lists-and-watches.md): `consistent` (Most recent), `any`, `notOlderThan`
 * a revision, or `exact` (Exact, and Continuation with the token's revision).
 */
export type ReadPlan = { mode: 'consistent' | 'any' } | { mode: 'notOlderThan' | 'exact'; revision: number };

/** One page of a collection to read. */
export interface ListRequest {
  /** The collection's storage prefix (`/registry/pods/`): which watch-cache collection serves it. */
  keyPrefix: string;
  /** Keys read: the collection's, or one namespace's (`/registry/pods/ns/`). */
  prefix: string;
  /** Start at this key (a continue token's position). */
  startKey?: string;
  /** At most this many selected items; 0 = all. */
  limit: number;
  /** Whether an object is in the list (selectors). */
  select(obj: KubeObject): boolean;
  plan: ReadPlan;
}

export interface ListPage {
  items: KubeObject[];
  /** The revision the page was read at: the list's resourceVersion. */
  revision: number;
  /** The last key read, for the continue token. */
  lastKey: string;
  more: boolean;
  /** Keys after the page (an estimate with selectors). */
  remaining: number;
}

/**
 * Computes the new object from the stored one (undefined when missing and the update may create). Called once per
 * compare-and-swap attempt with freshly decoded state; may mutate `current`. Returning `current` itself (or an
 * equal object) writes nothing; returning DELETE removes the key.
 */
export type TryUpdate = (current: KubeObject | undefined) => Promise<KubeObject | typeof DELETE> | KubeObject | typeof DELETE;

export type UpdateOutcome =
  /** `written` is false when nothing changed (the stored object is returned as it was). */
  | { obj: KubeObject; created: boolean; written: boolean }
  /** The key was removed: the last stored object, its resourceVersion the delete's revision. */
  | { deleted: KubeObject };

/** One event as a watcher sends it. */
export interface WatcherEvent {
  type: WatchEventType;
  object: unknown;
  /** A change dispatched to every watcher (its encodings are worth sharing), not per-watcher state. */
  live?: boolean;
  /** For a live event queued for a watcher: the stored bytes it holds (the objects it keeps alive until sent). */
  bytes?: number;
}

/** Where a watch starts and how it runs (the watch's part of kube's ListOptions). */
export interface WatchStart {
  /** '' (Most recent), '0' (Any), or a version to start exactly after. */
  resourceVersion: string;
  /** WatchList: send the state first even from a version, then an initial-events-end bookmark. */
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
  /** End the stream after this many seconds (0 or unset: the server's default). */
  timeoutSeconds?: number;
}

/** A watch on one collection, as the registry asks for it. */
export interface WatchRequest {
  keyPrefix: string;
  prefix: string;
  options: WatchStart;
  /** Whether an object is in the watcher's selection (namespace, name, label and field selectors). */
  matches(obj: KubeObject): boolean;
  /** The BOOKMARK object for a revision (only the resourceVersion, and annotations on the initial-events end). */
  bookmark(revision: number, annotations?: Record<string, string>): unknown;
  /** Frames one event in the client's media type (the endpoint's concern). */
  frame(event: WatcherEvent): Uint8Array | Promise<Uint8Array>;
  signal: AbortSignal;
}

/**
 * Object storage as the registry sees it (k8s.io/apiserver storage.Interface): objects in, objects out, at kube's
 * resource-version semantics. Implemented over a key-value backend (object-storage.ts), fronted by the watch cache
 * (cacher/delegator.ts), and wrapped for dry runs (dry-run.ts). Failures are StorageErrors or Status errors; the
 * Store turns storage errors into API errors.
 */
export interface ObjectStorage {
  /** Creates a key; KeyExists when it is taken. Resolves with the stored object (its resourceVersion set). */
  create(key: string, obj: KubeObject): Promise<KubeObject>;
  /**
   * One object per the get table (`resourceVersion` unset or '' = Most recent; `keyPrefix` names the collection,
   * for a cache); undefined when missing.
   */
  get(key: string, options?: { resourceVersion?: string; keyPrefix?: string }): Promise<KubeObject | undefined>;
  /** One page of a collection per the read plan. */
  getList(request: ListRequest): Promise<ListPage>;
  /**
   * Read-modify-write with compare-and-swap, retried with fresh state when another writer got there first.
   * Without `ignoreNotFound` a missing key is KeyNotFound.
   */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, options?: { ignoreNotFound?: boolean }): Promise<UpdateOutcome>;
  /** Removes a key without reading it (the forced deletion of an object that cannot be decoded). */
  forceDelete(key: string): Promise<void>;
  /** A watch per the watch table; resolves with the stream of framed events. */
  watch(request: WatchRequest): Promise<ReadableStream<Uint8Array>>;
}
