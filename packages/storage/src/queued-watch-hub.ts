import type { StorageWatchEvent, WatchHandlers } from './types.js';

/** A watcher of a {@link QueuedWatchHub}: its handlers and what is queued for them. */
export interface QueuedWatcher<T> {
  readonly prefix: string;
  readonly handlers: WatchHandlers;
  queue: T[];
  /** The next item of `queue` to deliver. */
  head: number;
  /** A drain is pending or running: nothing needs scheduling. */
  scheduled: boolean;
  open: boolean;
  /** Set when the backend closes: delivered through onError once the queue drains. */
  endError?: Error;
}

/**
 * The watches a backend feeds itself (from its own writes): each watcher has its own queue, drained
 * asynchronously (a microtask, then `setImmediate` between batches), so a write never runs a handler and one slow
 * handler never delays another. A subclass decides what is queued and when, in `drain`.
 */
export abstract class QueuedWatchHub<T, W extends QueuedWatcher<T>> {
  protected readonly watchers = new Set<W>();

  /** `batchSize`: items delivered per turn before yielding, so a long backlog does not starve writers. */
  constructor(protected readonly batchSize: number) {}

  /** Ends every watch: queued events are still delivered, then `onError(error)`. */
  closeAll(error: Error): void {
    for (const w of this.watchers) {
      w.endError = error;
      this.schedule(w, false);
    }
    this.watchers.clear();
  }

  /** One scheduled turn of `w`: typically {@link deliver}, then whatever follows an empty queue. */
  protected abstract drain(w: W): void;

  /** The event for `item`, called right before it is handed to `w`'s onEvent. */
  protected abstract event(w: W, item: T): StorageWatchEvent;

  protected schedule(w: W, yieldFirst: boolean): void {
    if (w.scheduled) return;
    w.scheduled = true;
    if (yieldFirst) setImmediate(() => this.drain(w));
    else queueMicrotask(() => this.drain(w));
  }

  /**
   * Hands `w`'s queued items to onEvent, one batch per turn. True when the queue ran empty with the watch still
   * open (the queue is then reset and the drain over); false when it yielded to the event loop (the rest is
   * scheduled) or the watch ended (a handler that throws ends it).
   */
  protected deliver(w: W): boolean {
    for (let n = 0; w.open && w.head < w.queue.length; n++) {
      if (n === this.batchSize) {
        w.scheduled = false;
        this.schedule(w, true);
        return false;
      }
      const item = w.queue[w.head++];
      try {
        w.handlers.onEvent(this.event(w, item));
      } catch (err) {
        // A handler that throws is broken: stop it rather than skip events it would then miss.
        this.end(w, err instanceof Error ? err : new Error(String(err)));
        return false;
      }
    }
    w.scheduled = false;
    if (!w.open) return false;
    w.queue = [];
    w.head = 0;
    return true;
  }

  /** Stops `w` and tells its onError why. */
  protected end(w: W, error: Error): void {
    this.stop(w);
    try {
      w.handlers.onError(error);
    } catch {
      // Nothing is left to tell.
    }
  }

  protected stop(w: W): void {
    w.open = false;
    w.queue = [];
    w.head = 0;
    this.watchers.delete(w);
  }
}
