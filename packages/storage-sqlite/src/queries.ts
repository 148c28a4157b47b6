import type { Database, Statement } from 'better-sqlite3';
import { prefixEnd, type Row, type StateRow } from './rows.js';

/** Far above any revision: "no upper bound" for the revision filters below. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export interface Range {
  /** Inclusive start key. */
  from: string;
  /** Exclusive end key; undefined: no end. */
  end: string | undefined;
}

/** The key range of a prefix, starting at `startKey` when that is later (list continuation). */
export function rangeOf(prefix: string, startKey?: string): Range {
  return { from: startKey !== undefined && startKey > prefix ? startKey : prefix, end: prefixEnd(prefix) };
}

// The latest row of each key in [from, end) with id <= rev: the state of the range at revision rev.
const LATEST_IN_RANGE = `
  SELECT MAX(id) AS id FROM kapi_log
  WHERE name >= @from AND (@end IS NULL OR name < @end) AND id <= @rev
  GROUP BY name`;

// What reads of a key's state need: every column but old_value, which only watch events carry (a row's old value is
// often the bigger part of it, and SQLite reads it from overflow pages when asked for it).
const STATE = (t = '') => ['id', 'name', 'created', 'deleted', 'create_revision', 'prev_revision', 'value'].map((c) => t + c).join(', ');

/** The prepared statements of the backend: one place for all of its SQL. */
export class Queries {
  private readonly head: Statement;
  private readonly at: Statement;
  private readonly page: Statement;
  private readonly pageAll: Statement;
  private readonly countLive: Statement;
  private readonly insertRow: Statement;
  private readonly rowsAfter: Statement;
  private readonly compactWindow: Statement;
  private readonly minId: Statement;

  constructor(db: Database) {
    this.head = db.prepare(`SELECT ${STATE()} FROM kapi_log WHERE name = ? ORDER BY id DESC LIMIT 1`);
    this.at = db.prepare(`SELECT ${STATE()} FROM kapi_log WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1`);
    this.page = db.prepare(
      `SELECT ${STATE('l.')} FROM (${LATEST_IN_RANGE}) m JOIN kapi_log l ON l.id = m.id WHERE l.deleted = 0 ORDER BY l.name LIMIT @limit`,
    );
    this.pageAll = db.prepare(`SELECT ${STATE('l.')} FROM (${LATEST_IN_RANGE}) m JOIN kapi_log l ON l.id = m.id WHERE l.deleted = 0 ORDER BY l.name`);
    this.countLive = db.prepare(`SELECT COUNT(*) AS n FROM (${LATEST_IN_RANGE}) m JOIN kapi_log l ON l.id = m.id WHERE l.deleted = 0`);
    this.insertRow = db.prepare(
      `INSERT INTO kapi_log (id, name, created, deleted, create_revision, prev_revision, value, old_value)
       VALUES (@id, @name, @created, @deleted, @create_revision, @prev_revision, @value, @old_value)`,
    );
    this.rowsAfter = db.prepare(
      'SELECT * FROM kapi_log WHERE id > @after AND name >= @from AND (@end IS NULL OR name < @end) ORDER BY id LIMIT @limit',
    );
    // Rows below rev that reads at rev or later cannot reach: superseded by a later row at or before rev, and
    // tombstones (reads at rev see the key as absent either way once its earlier rows are gone).
    this.compactWindow = db.prepare(
      `DELETE FROM kapi_log WHERE id >= @lo AND id < @hi AND (
         deleted = 1 OR id < (SELECT MAX(k.id) FROM kapi_log k WHERE k.name = kapi_log.name AND k.id <= @rev)
       )`,
    );
    this.minId = db.prepare('SELECT MIN(id) AS id FROM kapi_log');
  }

  /** The key's latest row (a tombstone included). */
  headOf(key: string): StateRow | undefined {
    return this.head.get(key) as StateRow | undefined;
  }

  /** The key's latest row at revision `rev` (a tombstone included). */
  rowAt(key: string, rev: number): StateRow | undefined {
    return this.at.get(key, rev) as StateRow | undefined;
  }

  /** Live keys of `range` at `rev`, in key order; `limit` 0 = all. */
  livePage(range: Range, rev: number, limit: number): StateRow[] {
    const params = { from: range.from, end: range.end ?? null, rev };
    return (limit > 0 ? this.page.all({ ...params, limit }) : this.pageAll.all(params)) as StateRow[];
  }

  countLiveAt(range: Range, rev: number = NO_LIMIT): number {
    return (this.countLive.get({ from: range.from, end: range.end ?? null, rev }) as { n: number }).n;
  }

  insert(row: Row): void {
    this.insertRow.run(row);
  }

  /** Up to `limit` rows of `range` with id > `after`, in revision order: a watch's backlog. */
  rowsAfterRevision(range: Range, after: number, limit: number): Row[] {
    return this.rowsAfter.all({ after, from: range.from, end: range.end ?? null, limit }) as Row[];
  }

  /** Deletes what compaction at `rev` frees among ids in [lo, hi); returns how many rows went. */
  compactIds(lo: number, hi: number, rev: number): number {
    return this.compactWindow.run({ lo, hi, rev }).changes;
  }

  firstId(): number | undefined {
    return (this.minId.get() as { id: number | null }).id ?? undefined;
  }
}
