import type { Database } from 'better-sqlite3';

/** The version of the schema below, kept in `kapi_meta`; opening a database written by a newer Kapi fails. */
export const SCHEMA_VERSION = 1;

/**
 * The log of revisions, as kine's `kine` table: one row per change, never updated, the revision is the row id.
 * See README.md ("Schema") for what each column holds.
 *
 * - `id`: the revision of the change. AUTOINCREMENT, so ids are never reused even after compaction deleted the
 *   newest rows' predecessors; the backend assigns them itself (last revision + 1) inside the write transaction.
 * - `name`: the key (`/registry/...`), compared bytewise (BINARY collation on UTF-8), which is key order.
 * - `created`: 1 when the row created the key (it did not exist before), else 0.
 * - `deleted`: 1 for a tombstone (the key was deleted at this revision), else 0.
 * - `create_revision`: the revision that created the key's current incarnation (for a tombstone: that of the
 *   deleted value); equals `id` when `created` is 1.
 * - `prev_revision`: the id of the key's previous row (a value or a tombstone), 0 when none.
 * - `value`: the stored bytes exactly as given (Kapi's registry writes JSON); NULL for a tombstone.
 * - `old_value`: the key's value before this change (the watch event's prevKv, and for a tombstone the deleted
 *   value); NULL when the key did not exist. Kept inline so events survive compaction of the previous row.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS kapi_log (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT    NOT NULL,
  created         INTEGER NOT NULL,
  deleted         INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision   INTEGER NOT NULL,
  value           BLOB,
  old_value       BLOB
);
CREATE INDEX IF NOT EXISTS kapi_log_name_id ON kapi_log (name, id);
CREATE TABLE IF NOT EXISTS kapi_meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

export interface Meta {
  /** The oldest readable revision (1 until something was compacted). */
  compactedRevision: number;
  /** The last revision written (0 for a new database). */
  revision: number;
}

/** Creates the tables on a new database, checks the schema version of an existing one, and reads the state. */
export function migrate(db: Database): Meta {
  db.exec(DDL);
  const version = metaValue(db, 'schema_version');
  if (version === undefined) setMeta(db, 'schema_version', SCHEMA_VERSION);
  else if (version > SCHEMA_VERSION) {
    throw new Error(`the database was written by a newer Kapi (schema version ${version}; this one knows ${SCHEMA_VERSION})`);
  }
  const seq = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'kapi_log'`).get() as { seq: number } | undefined;
  return { compactedRevision: metaValue(db, 'compacted_revision') ?? 1, revision: seq?.seq ?? 0 };
}

export function metaValue(db: Database, name: string): number | undefined {
  const row = db.prepare('SELECT value FROM kapi_meta WHERE name = ?').get(name) as { value: number } | undefined;
  return row?.value;
}

export function setMeta(db: Database, name: string, value: number): void {
  db.prepare('INSERT INTO kapi_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
}
