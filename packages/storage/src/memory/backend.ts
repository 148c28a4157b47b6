// Node's own, not the global: a test that fakes timers (vitest's and Jest's fake the global setImmediate) must not
// stop writes from being answered.
import { setImmediate as nextTurn } from 'node:timers';
import { checkReadRevision, checkWriteArgs, failedWatch, newClosedError, pageLimit, watchStartError } from '../backend-checks.js';
import { newCompactedError, newConflictError, newKeyExistsError, newKeyNotFoundError, newTooLargeRevisionError } from '../errors.js';
import type { KeyValue, ListResult, StorageBackend, StorageWatch, WatchHandlers, WatchOptions } from '../types.js';
import { KeyIndex } from './key-index.js';
import { EventLog, entryKeyValue, type LogEntry } from './log.js';
import { RevisionWaiters } from './revision-waiters.js';
import { entryAt, readPage } from './snapshot.js';
import { WatchHub } from './watch-hub.js';

export interface MemoryBackendOptions {
  /**
   * How long (ms) a get or list at a revision not written yet waits for it before failing with TooLargeRevision.
   * Default 0: fail at once.
   */
  futureRevisionTimeoutMs?: number;
}

/**
 * An in-memory {@link StorageBackend}: kine's append-only event log plus an index of each key's latest entry.
 * History is kept until `compact()` is called (nothing compacts on its own). Every method applies its write or
 * read synchronously when called, so calls take effect in call order. Values are copied on write; returned
 * values are shared and must not be mutated.
 *
 * `close()` ends every watch: queued events are delivered, then `onError` with an Unreachable StorageError
 * ("closed"). Later calls reject with Unreachable.
 */
export function createMemoryBackend(options: MemoryBackendOptions = {}): StorageBackend {
  const log = new EventLog();
  const index = new KeyIndex();
  const hub = new WatchHub();
  let revision = 0;
  let compacted = 1;
  let closed = false;
  const waiters = new RevisionWaiters(options.futureRevisionTimeoutMs ?? 0, () => revision);

  function checkOpen(): void {
    if (closed) throw newClosedError();
  }

  function checkWrite(key: string, value?: Uint8Array): void {
    checkOpen();
    checkWriteArgs(key, value);
  }

  /** Resolves the revision a read is served at: 0 → current; below the compacted revision → Compacted. */
  async function readRevision(requested: number | undefined, key: string): Promise<number> {
    checkOpen();
    const at = checkReadRevision(requested, key);
    if (!at) return revision;
    if (at < compacted) throw newCompactedError(at, compacted, key);
    await waiters.wait(at, key);
    if (at < compacted) throw newCompactedError(at, compacted, key);
    return at;
  }

  function append(key: string, value: Uint8Array | undefined, head: LogEntry | undefined): LogEntry {
    revision += 1;
    const live = head?.value !== undefined ? head : undefined;
    const entry: LogEntry = {
      revision,
      key,
      value,
      createRevision: live ? live.createRevision : revision,
      prevRevision: head ? head.revision : 0,
      prevValue: live?.value,
    };
    log.append(entry);
    index.set(entry);
    waiters.advanced(revision);
    return entry;
  }

  /**
   * Answers a write once its turn of the event loop is over, as SQLite's group commit does: the writes of one turn
   * are handed to the watchers together, and then answered. (Each write published and answered on its own, every
   * create ran the watch cache's decode and fan-out alone, interleaved with its own answer: the sample server spent
   * 1.2–1.4× the CPU per create it spends now; BENCHMARKS.md.)
   */
  let turn: LogEntry[] | undefined;
  let turnCommitted = Promise.resolve();
  function committed(entry: LogEntry): Promise<void> {
    if (!turn) {
      const entries: LogEntry[] = (turn = []);
      turnCommitted = new Promise<void>((resolve) => nextTurn(() => {
        turn = undefined;
        for (const e of entries) hub.publish(e);
        resolve();
      }));
    }
    turn.push(entry);
    return turnCommitted;
  }

  /** Appends a write and answers it once its turn is committed (see {@link committed}). */
  async function write(key: string, value: Uint8Array | undefined, head: LogEntry | undefined): Promise<LogEntry> {
    const entry = append(key, value, head);
    await committed(entry);
    return entry;
  }

  /** The latest revision written, synchronously (currentRevision's answer). */
  const revisionNow = (): number => {
    checkOpen();
    return revision;
  };

  return {
    localRevision: true,
    async currentRevision() {
      return revisionNow();
    },
    revisionNow,

    async get(key, opts) {
      const at = await readRevision(opts?.revision, key);
      const e = at === revision ? index.live(key) : entryAt(index, log, key, at);
      return e ? { kv: entryKeyValue(e), revision: at } : { revision: at };
    },

    async list(opts): Promise<ListResult> {
      const at = await readRevision(opts.revision, opts.prefix);
      const limit = pageLimit(opts.limit);
      const page = readPage(index, log, revision, { prefix: opts.prefix, startKey: opts.startKey, limit, revision: at });
      return { kvs: page.kvs, revision: at, more: page.remaining > 0, remaining: page.remaining };
    },

    async count(prefix) {
      checkOpen();
      const [lo, hi] = index.range(prefix);
      return hi - lo;
    },

    async create(key, value): Promise<KeyValue> {
      checkWrite(key, value);
      const head = index.head(key);
      if (head?.value !== undefined) throw newKeyExistsError(key);
      return entryKeyValue(await write(key, value.slice(), head));
    },

    async update(key, value, expectedModRevision): Promise<KeyValue> {
      checkWrite(key, value);
      const head = index.live(key);
      if (!head) throw newKeyNotFoundError(key);
      if (head.revision !== expectedModRevision) {
        throw newConflictError(key, `expected mod revision ${expectedModRevision}, found ${head.revision}`);
      }
      return entryKeyValue(await write(key, value.slice(), head));
    },

    async delete(key, expectedModRevision): Promise<KeyValue> {
      checkWrite(key);
      const head = index.live(key);
      if (!head) throw newKeyNotFoundError(key);
      if (expectedModRevision !== undefined && head.revision !== expectedModRevision) {
        throw newConflictError(key, `expected mod revision ${expectedModRevision}, found ${head.revision}`);
      }
      const tombstone = await write(key, undefined, head);
      return { key, value: head.value as Uint8Array, createRevision: head.createRevision, modRevision: tombstone.revision };
    },

    watch(opts: WatchOptions, handlers: WatchHandlers): StorageWatch {
      // Events from `afterRevision + 1` on must still be in the log.
      const refused = watchStartError(opts, closed, compacted);
      if (refused) return failedWatch(handlers, refused);
      return hub.add(opts.prefix, opts.afterRevision, handlers, () => log.after(opts.afterRevision));
    },

    async compact(rev) {
      checkOpen();
      if (rev > revision) throw newTooLargeRevisionError(rev, revision);
      if (rev <= compacted) return;
      for (const tombstone of log.compact(rev)) index.forget(tombstone);
      compacted = rev;
    },

    async compactedRevision() {
      checkOpen();
      return compacted;
    },

    async close() {
      if (closed) return;
      closed = true;
      const err = newClosedError();
      hub.closeAll(err);
      waiters.rejectAll(err);
    },
  };
}
