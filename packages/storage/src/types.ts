/**
 * The storage contract (docs/architecture.md, conventions), modelled on etcd's MVCC store and kine's log-structured
 * backend: every write gets the next value of one global, strictly increasing revision; values are opaque bytes
 * (the registry serializes objects); writes are compare-and-swap on a key's mod revision.
 *
 * Keys follow kube-apiserver: `/registry/<resource>/<namespace>/<name>`, `/registry/<group>/<resource>/...`.
 */
export interface KeyValue {
  key: string;
  value: Uint8Array;
  /** Revision of the write that created this key (since it last did not exist). */
  createRevision: number;
  /** Revision of the last write to this key: the object's resourceVersion. */
  modRevision: number;
  /**
   * Set by a wrapper that transforms values (encryption at rest) when the stored bytes are not what a write would
   * store now (written with an older key or provider): an update that leaves the value unchanged still writes it.
   * Backends never set it.
   */
  stale?: boolean;
}

export interface GetOptions {
  /** Read the key as it was at this revision (0 or absent: current). Below the compacted revision → Compacted. */
  revision?: number;
}

export interface GetResult {
  kv?: KeyValue;
  /** The revision the read was served at. */
  revision: number;
}

export interface ListOptions {
  /** Keys starting with this prefix (for a collection, `/registry/pods/` or `/registry/pods/ns/`). */
  prefix: string;
  /** Start from this key (inclusive) instead of the prefix's first key; for continue tokens. */
  startKey?: string;
  /** At most this many items (0 or absent: all). */
  limit?: number;
  /** Read as of this revision (0 or absent: current). Below the compacted revision → Compacted. */
  revision?: number;
}

export interface ListResult {
  /** Matching keys in ascending key order. */
  kvs: KeyValue[];
  /** The revision the list was served at (the current revision when none was asked for). */
  revision: number;
  /** Whether keys beyond the returned ones match. */
  more: boolean;
  /** How many matching keys follow the returned ones (0 when `more` is false). */
  remaining: number;
}

export type WatchEventType = 'PUT' | 'DELETE';

export interface StorageWatchEvent {
  type: WatchEventType;
  /** For PUT the new value; for DELETE the deleted key with modRevision = the delete's revision and the last value. */
  kv: KeyValue;
  /** The value before this event, when there was one. */
  prevKv?: KeyValue;
  /** `kv.createRevision === kv.modRevision` for a PUT that created the key. */
  created: boolean;
}

export interface WatchOptions {
  prefix: string;
  /** Deliver every event with revision > `afterRevision`. Compacted history → the watch fails with Compacted. */
  afterRevision: number;
}

/** A running watch: events arrive in revision order through `onEvent`; `onError` ends it. */
export interface StorageWatch {
  stop(): void;
  /**
   * Optional. Asks the backend to report, through `onProgress`, the revision up to which every event was
   * delivered (etcd's RequestProgress), so a reader can tell it caught up even when the revision moved by writes
   * outside the watched prefix. Backends whose watches see every revision need not offer it.
   */
  requestProgress?(): void;
}

export interface WatchHandlers {
  /**
   * Called once per event, asynchronously (never inside the write call), in revision order. If it throws, the
   * watch ends and `onError` receives what it threw.
   */
  onEvent(event: StorageWatchEvent): void;
  /** Called once when the watch ends because of an error (Compacted, backend closed); never after `stop()`. */
  onError(error: Error): void;
  /**
   * Optional. Called when the backend learns that every event up to `revision` was delivered (etcd's progress
   * notifications, which arrive while nothing changes under the prefix), in order with the events. Backends that
   * have no such notice never call it.
   */
  onProgress?(revision: number): void;
}

/**
 * A revisioned key-value backend. Every backend (memory, sqlite, etcd) passes the conformance suite in
 * `@kapi/storage/testing`. Methods reject with {@link StorageError} for the conditions it names.
 */
export interface StorageBackend {
  /** The latest revision written (0 for an empty store). */
  currentRevision(): Promise<number>;
  /**
   * Whether currentRevision answers from this process, without I/O (memory, SQLite; not etcd): the watch cache
   * may then ask it on every read and serve a consistent read from its own state whenever that state is current.
   */
  readonly localRevision?: boolean;
  /**
   * currentRevision answered synchronously, by a backend with `localRevision` (it throws where currentRevision
   * rejects): the watch cache asks it on every consistent read, which then takes no turn of the event loop.
   */
  revisionNow?(): number;
  get(key: string, options?: GetOptions): Promise<GetResult>;
  list(options: ListOptions): Promise<ListResult>;
  /** Number of keys under a prefix, at the current revision. */
  count(prefix: string): Promise<number>;
  /** Creates a key that does not exist; KeyExists otherwise. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /** Replaces a key's value if its modRevision is still `expectedModRevision`; Conflict or KeyNotFound otherwise. */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue>;
  /**
   * Deletes a key (if given, only while its modRevision is `expectedModRevision`: Conflict otherwise; KeyNotFound
   * when absent). Resolves with the deleted value, its modRevision set to the delete's revision.
   */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  /** Streams changes under a prefix after a revision. */
  watch(options: WatchOptions, handlers: WatchHandlers): StorageWatch;
  /**
   * Forgets history before `revision`: reads and watches below it fail with Compacted. At or below the compacted
   * revision it does nothing; above the current revision it fails with TooLargeRevision.
   */
  compact(revision: number): Promise<void>;
  /** The oldest revision still readable (1 when nothing was compacted). */
  compactedRevision(): Promise<number>;
  /**
   * Bytes the backend's database physically takes (etcd's dbSize, the SQLite file's pages), for the
   * `apiserver_storage_size_bytes` metric. Optional: backends without a database (memory) leave it out.
   */
  sizeBytes?(): Promise<number>;
  /** Ends running watches with onError (an Unreachable StorageError); later calls fail with Unreachable. Idempotent. */
  close(): Promise<void>;
}
