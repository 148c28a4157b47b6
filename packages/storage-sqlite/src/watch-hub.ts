import {
  newCompactedError,
  QueuedWatchHub,
  type QueuedWatcher,
  type StorageWatch,
  type StorageWatchEvent,
  type WatchHandlers,
} from '@kapi/storage';
import { rangeOf, type Range } from './queries.js';
import { rowEvent, type Row } from './rows.js';

/** Events delivered per turn before yielding to the event loop, and rows read per page of a backlog. */
const BATCH = 512;
/** A live watcher with more undelivered rows than this is moved aside and catches up from the table later. */
const MAX_QUEUE = 10_000;

interface Watcher extends QueuedWatcher<Row> {
  readonly range: Range;
  /**
   * 'catchup': reads its backlog from the table, a page at a time, until it reaches the head; 'live': fed by
   * `publish` after each commit. New watchers and slow ("victim") ones catch up.
   */
  mode: 'catchup' | 'live';
  /** The highest revision queued (live) or read (catch-up): rows at or below it are never queued again. */
  cursor: number;
  /** The highest revision handed to onEvent. */
  delivered: number;
}

export interface RowSource {
  /** Up to `limit` rows of `range` after revision `after`, oldest first, read now. */
  rowsAfter(range: Range, after: number, limit: number): Row[];
  compactedRevision(): number;
}

/**
 * The watch fed from appended rows. One process owns the database, so the backend calls `publish` right after
 * each commit with the new rows, in revision order. A new watcher first reads its backlog from the table and
 * joins the live feed in the same synchronous step as the read that found no more rows, so no row committed in
 * between can be missed (commits are synchronous too) and none is delivered twice (`cursor`). A watcher that
 * falls far behind drops its queue and goes back to reading the table, so a slow client never holds memory
 * for the whole stream; if compaction overtook it meanwhile, it ends with Compacted.
 */
export class SqliteWatchHub extends QueuedWatchHub<Row, Watcher> {
  constructor(private readonly source: RowSource) {
    super(BATCH);
  }

  add(prefix: string, afterRevision: number, handlers: WatchHandlers): StorageWatch {
    const w: Watcher = {
      prefix,
      range: rangeOf(prefix),
      handlers,
      mode: 'catchup',
      queue: [],
      head: 0,
      cursor: afterRevision,
      delivered: afterRevision,
      scheduled: false,
      open: true,
    };
    this.watchers.add(w);
    this.schedule(w, false);
    return { stop: () => this.stop(w) };
  }

  /** Called after each commit with its rows, in revision order. */
  publish(rows: Row[]): void {
    for (const w of this.watchers) {
      if (w.mode !== 'live') continue;
      for (const row of rows) {
        if (row.id <= w.cursor || !row.name.startsWith(w.prefix)) continue;
        w.cursor = row.id;
        w.queue.push(row);
      }
      if (w.queue.length - w.head > MAX_QUEUE) {
        // A victim: forget what is queued and read it again from the table once it drains.
        w.mode = 'catchup';
        w.queue = [];
        w.head = 0;
        w.cursor = w.delivered;
      }
      if (w.head < w.queue.length) this.schedule(w, false);
    }
  }

  protected drain(w: Watcher): void {
    if (!w.open) return;
    if (w.mode === 'catchup' && w.head === w.queue.length && !w.endError) {
      if (!this.readBacklog(w)) return;
    }
    if (!this.deliver(w)) return;
    if (w.endError) this.end(w, w.endError);
    else if (w.mode === 'catchup') this.schedule(w, true);
  }

  protected event(w: Watcher, row: Row): StorageWatchEvent {
    w.delivered = row.id;
    return rowEvent(row);
  }

  /** Reads the next page of a catching-up watcher's backlog; false when the watch ended instead. */
  private readBacklog(w: Watcher): boolean {
    const compacted = this.source.compactedRevision();
    if (w.cursor + 1 < compacted) {
      this.end(w, newCompactedError(w.cursor, compacted, w.prefix));
      return false;
    }
    let rows: Row[];
    try {
      rows = this.source.rowsAfter(w.range, w.cursor, BATCH);
    } catch (err) {
      this.end(w, err instanceof Error ? err : new Error(String(err)));
      return false;
    }
    // Fewer rows than asked: this read reached the head, so the live feed takes over from here on.
    if (rows.length < BATCH) w.mode = 'live';
    for (const row of rows) {
      if (!row.name.startsWith(w.prefix)) continue;
      w.queue.push(row);
    }
    if (rows.length > 0) w.cursor = rows[rows.length - 1].id;
    return true;
  }
}
