import {
  checkReadRevision,
  checkWriteArgs,
  failedWatch,
  newClosedError,
  newCompactedError,
  newTooLargeRevisionError,
  pageLimit,
  watchStartError,
  type KeyValue,
  type ListResult,
  type StorageBackend,
  type StorageWatch,
  type WatchHandlers,
  type WatchOptions,
} from '@kapi/storage';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { compactLog } from './compact.js';
import { Queries, rangeOf } from './queries.js';
import { rowKeyValue } from './rows.js';
import { migrate, setMeta } from './schema.js';
import { SqliteWatchHub } from './watch-hub.js';
import { GroupCommitWriter } from './writer.js';

export interface SqliteBackendOptions {
  /** The database file (created with its directory when missing), or ':memory:' for a throwaway store. */
  path: string;
  /**
   * SQLite's `synchronous` setting in WAL mode. 'NORMAL' (the default) makes every acknowledged write survive a
   * crash or kill of the process: a commit is in the WAL file, in the OS's cache, before it is acknowledged.
   * Only an OS crash or power loss can lose the last commits (never corrupting the database). 'FULL' also
   * fsyncs the WAL at each commit (once per batch of writes), surviving power loss at the cost of latency.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Most writes committed in one transaction. Default 1000. */
  maxBatch?: number;
}

/**
 * A durable {@link StorageBackend} in one SQLite database (better-sqlite3): kine's log-structured table, one row
 * per change, the revision being the row id (see README.md for the schema). Writes that arrive in the same turn
 * of the event loop are committed together in one transaction (group commit); each is acknowledged only after
 * that commit. Watches are fed in-process from the committed rows.
 *
 * One process owns the database: it is opened in exclusive locking mode, and a second opener fails with
 * "database is locked". Reads run synchronously on the same connection, so they see every acknowledged write.
 * `close()` commits writes already submitted, ends watches with onError (Unreachable), and closes the file.
 */
export function createSqliteBackend(options: SqliteBackendOptions): StorageBackend {
  const db = openDatabase(options);
  const meta = migrate(db);
  const queries = new Queries(db);
  const state = { revision: meta.revision, compacted: meta.compactedRevision };
  const hub = new SqliteWatchHub({
    rowsAfter: (range, after, limit) => queries.rowsAfterRevision(range, after, limit),
    compactedRevision: () => state.compacted,
  });
  const writer = new GroupCommitWriter(db, queries, state, (rows) => hub.publish(rows), options.maxBatch);
  let closed = false;
  let compaction: Promise<void> = Promise.resolve();

  function checkOpen(): void {
    if (closed) throw newClosedError();
  }

  function checkWrite(key: string, value?: Uint8Array): void {
    checkOpen();
    checkWriteArgs(key, value);
  }

  /** Resolves the revision a read is served at: 0 → current; below the compacted revision → Compacted. */
  function readRevision(requested: number | undefined, key: string): number {
    checkOpen();
    const at = checkReadRevision(requested, key);
    if (!at) return state.revision;
    if (at < state.compacted) throw newCompactedError(at, state.compacted, key);
    if (at > state.revision) throw newTooLargeRevisionError(at, state.revision, key);
    return at;
  }

  /** The latest revision written, synchronously (currentRevision's answer). */
  const revisionNow = (): number => {
    checkOpen();
    return state.revision;
  };

  return {
    localRevision: true,
    async currentRevision() {
      return revisionNow();
    },
    revisionNow,

    async get(key, opts) {
      const at = readRevision(opts?.revision, key);
      const row = queries.rowAt(key, at);
      return row && !row.deleted ? { kv: rowKeyValue(row), revision: at } : { revision: at };
    },

    async list(opts): Promise<ListResult> {
      const at = readRevision(opts.revision, opts.prefix);
      const limit = pageLimit(opts.limit);
      const range = rangeOf(opts.prefix, opts.startKey);
      const kvs = queries.livePage(range, at, limit).map(rowKeyValue);
      const remaining = limit > 0 && kvs.length === limit ? queries.countLiveAt(range, at) - kvs.length : 0;
      return { kvs, revision: at, more: remaining > 0, remaining };
    },

    async count(prefix) {
      checkOpen();
      return queries.countLiveAt(rangeOf(prefix));
    },

    create(key, value): Promise<KeyValue> {
      try {
        checkWrite(key, value);
      } catch (err) {
        return Promise.reject(err);
      }
      return writer.submit({ kind: 'create', key, value: Buffer.from(value) });
    },

    update(key, value, expectedModRevision): Promise<KeyValue> {
      try {
        checkWrite(key, value);
      } catch (err) {
        return Promise.reject(err);
      }
      return writer.submit({ kind: 'update', key, value: Buffer.from(value), expected: expectedModRevision });
    },

    delete(key, expectedModRevision): Promise<KeyValue> {
      try {
        checkWrite(key);
      } catch (err) {
        return Promise.reject(err);
      }
      return writer.submit({ kind: 'delete', key, expected: expectedModRevision });
    },

    watch(opts: WatchOptions, handlers: WatchHandlers): StorageWatch {
      // Rows from `afterRevision + 1` on must still be in the table.
      const refused = watchStartError(opts, closed, state.compacted);
      if (refused) return failedWatch(handlers, refused);
      return hub.add(opts.prefix, opts.afterRevision, handlers);
    },

    async compact(rev) {
      checkOpen();
      if (rev > state.revision) throw newTooLargeRevisionError(rev, state.revision);
      if (rev <= state.compacted) return;
      // Reads and watches below rev fail from now on; the rows they would need are deleted in the background of
      // this call, a window at a time, between which writes and reads go on.
      state.compacted = rev;
      setMeta(db, 'compacted_revision', rev);
      const run = compaction.then(() => compactLog(queries, db, rev, () => closed));
      compaction = run.catch(() => {});
      await run;
    },

    async compactedRevision() {
      checkOpen();
      return state.compacted;
    },

    async sizeBytes() {
      checkOpen();
      // The main file's pages (free ones included: allocated on disk), as etcd's dbSize counts its file.
      return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    },

    async close() {
      if (closed) return;
      // Writes already submitted were promised an answer: commit them first.
      writer.flush();
      closed = true;
      hub.closeAll(newClosedError());
      await compaction;
      db.close();
    },
  };
}

function openDatabase(options: SqliteBackendOptions): Database.Database {
  if (options.path !== ':memory:' && options.path !== '') mkdirSync(dirname(options.path), { recursive: true });
  // A short busy timeout: the only contention is another process holding the file, which does not let go.
  const db = new Database(options.path, { timeout: 200 });
  try {
    // Exclusive locking: this process owns the file (the in-process watch depends on it), and WAL needs no
    // shared-memory index then. Taking a write lock now makes a second server on the same file fail at start.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    db.close();
    const busy = (err as { code?: string }).code === 'SQLITE_BUSY';
    throw new Error(
      busy ? `the database ${options.path} is in use by another process` : `cannot open ${options.path}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return db;
}
