import type { Database } from 'better-sqlite3';
import type { Queries } from './queries.js';

/** Ids examined per transaction: small enough that a window never holds up writes for long. */
const WINDOW = 5000;

/**
 * Deletes the rows that reads at `rev` or later can no longer reach, oldest first, one window of ids per
 * transaction, yielding to the event loop between windows. Rows at or above `rev` are never touched, so a
 * watch from `rev - 1` on and reads at `rev` or later see the same data throughout. Stops early when the
 * backend closes (the next compaction finishes the job).
 */
export async function compactLog(queries: Queries, db: Database, rev: number, closed: () => boolean): Promise<void> {
  let lo = queries.firstId() ?? rev;
  const deleteWindow = db.transaction((from: number, to: number) => queries.compactIds(from, to, rev));
  while (lo < rev) {
    if (closed()) return;
    const hi = Math.min(lo + WINDOW, rev);
    deleteWindow.immediate(lo, hi);
    lo = hi;
    if (lo < rev) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
