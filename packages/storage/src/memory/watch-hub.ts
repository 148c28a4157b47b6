import type { StorageWatch, WatchHandlers } from '../types.js';
import { entryEvent, type LogEntry } from './log.js';

/** Events delivered per turn before yielding to the event loop, so a long backlog does not starve writers. */
const BATCH = 1024;

interface Watcher {
  readonly prefix: string;
  readonly handlers: WatchHandlers;
  queue: LogEntry[];
  head: number;
  /** Highest revision queued: later duplicates (backfill overlapping live events) are dropped. */
  lastRevision: number;
  scheduled: boolean;
  open: boolean;
  /** Set when the backend closes: delivered through onError once the queue drains. */
  endError?: Error;
}

/**
 * Fans log entries out to watchers. Each watcher has its own queue, drained asynchronously (a microtask, then
 * `setImmediate` between batches), so a write never runs a handler and one slow handler never delays another.
 */
export class WatchHub {
  private readonly watchers = new Set<Watcher>();

  /** Subscribes first, then queues the backlog (entries after the requested revision), as etcd and kine do. */
  add(prefix: string, afterRevision: number, handlers: WatchHandlers, backlog: () => LogEntry[]): StorageWatch {
    const w: Watcher = { prefix, handlers, queue: [], head: 0, lastRevision: afterRevision, scheduled: false, open: true };
    this.watchers.add(w);
    for (const e of backlog()) this.offer(w, e);
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

  publish(entry: LogEntry): void {
    for (const w of this.watchers) this.offer(w, entry);
  }

  /** Ends every watch: queued events are still delivered, then `onError(error)`. */
  closeAll(error: Error): void {
    for (const w of this.watchers) {
      w.endError = error;
      this.schedule(w, false);
    }
    this.watchers.clear();
  }

  private offer(w: Watcher, e: LogEntry): void {
    if (e.revision <= w.lastRevision || !e.key.startsWith(w.prefix)) return;
    w.lastRevision = e.revision;
    w.queue.push(e);
    this.schedule(w, false);
  }

  private schedule(w: Watcher, yieldFirst: boolean): void {
    if (w.scheduled) return;
    w.scheduled = true;
    if (yieldFirst) setImmediate(() => this.drain(w));
    else queueMicrotask(() => this.drain(w));
  }

  private drain(w: Watcher): void {
    for (let n = 0; w.open && w.head < w.queue.length; n++) {
      if (n === BATCH) {
        w.scheduled = false;
        this.schedule(w, true);
        return;
      }
      const entry = w.queue[w.head++];
      try {
        w.handlers.onEvent(entryEvent(entry));
      } catch (err) {
        // A handler that throws is broken: stop it rather than skip events it would then miss.
        this.end(w, err instanceof Error ? err : new Error(String(err)));
        return;
      }
    }
    w.queue = [];
    w.head = 0;
    w.scheduled = false;
    if (w.open && w.endError) this.end(w, w.endError);
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
