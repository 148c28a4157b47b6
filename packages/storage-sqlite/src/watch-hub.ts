import { newCompactedError, type StorageWatch, type WatchHandlers } from '@kapi/storage';
import { rangeOf, type Range } from './queries.js';
import { rowEvent, type Row } from './rows.js';

/** Events delivered per turn before yielding to the event loop, so a long backlog does not starve writers. */
const BATCH = 512;
/** A live watcher with more undelivered rows than this is moved aside and catches up from the table later. */
const MAX_QUEUE = 10_000;

interface Watcher {
  readonly prefix: string;
  readonly range: Range;
  readonly handlers: WatchHandlers;
  /**
   * 'catchup': reads its backlog from the table, a page at a time, until it reaches the head; 'live': fed by
   * `publish` after each commit. New watchers and slow ("victim") ones catch up.
   */
  mode: 'catchup' | 'live';
  queue: Row[];
  head: number;
  /** The highest revision queued (live) or read (catch-up): rows at or below it are never queued again. */
  cursor: number;
  /** The highest revision handed to onEvent. */
  delivered: number;
  scheduled: boolean;
  open: boolean;
  endError?: Error;
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
export class SqliteWatchHub {
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly source: RowSource) {}

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

  /** A watch that could not start: `onError` follows asynchronously unless it is stopped first. */
  failed(handlers: WatchHandlers, error: Error): StorageWatch {
    let open = true;
    queueMicrotask(() => {
      if (open) handlers.onError(error);
      open = false;
    });
    return { stop: () => void (open = false) };
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

  /** Ends every watch: queued events are still delivered, then `onError(error)`. */
  closeAll(error: Error): void {
    for (const w of this.watchers) {
      w.endError = error;
      this.schedule(w, false);
    }
    this.watchers.clear();
  }

  private schedule(w: Watcher, yieldFirst: boolean): void {
    if (w.scheduled) return;
    w.scheduled = true;
    if (yieldFirst) setImmediate(() => this.drain(w));
    else queueMicrotask(() => this.drain(w));
  }

  private drain(w: Watcher): void {
    w.scheduled = false;
    if (!w.open) return;
    if (w.mode === 'catchup' && w.head === w.queue.length && !w.endError) {
      if (!this.readBacklog(w)) return;
    }
    for (let n = 0; w.open && w.head < w.queue.length; n++) {
      if (n === BATCH) {
        this.schedule(w, true);
        return;
      }
      const row = w.queue[w.head++];
      w.delivered = row.id;
      try {
        w.handlers.onEvent(rowEvent(row));
      } catch (err) {
        // A handler that throws is broken: stop it rather than skip events it would then miss.
        this.end(w, err instanceof Error ? err : new Error(String(err)));
        return;
      }
    }
    if (!w.open) return;
    w.queue = [];
    w.head = 0;
    if (w.endError) this.end(w, w.endError);
    else if (w.mode === 'catchup') this.schedule(w, true);
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

  private end(w: Watcher, error: Error): void {
    this.stop(w);
    try {
      w.handlers.onError(error);
    } catch {
      // Nothing is left to tell.
    }
  }

  private stop(w: Watcher): void {
    w.open = false;
    w.queue = [];
    w.head = 0;
    this.watchers.delete(w);
  }
}
