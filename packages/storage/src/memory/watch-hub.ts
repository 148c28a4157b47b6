import { changeEvent } from '../change-event.js';
import { QueuedWatchHub, type QueuedWatcher } from '../queued-watch-hub.js';
import type { StorageWatch, StorageWatchEvent, WatchHandlers } from '../types.js';
import type { LogEntry } from './log.js';

interface Watcher extends QueuedWatcher<LogEntry> {
  /** Highest revision queued: later duplicates (backfill overlapping live events) are dropped. */
  lastRevision: number;
}

/** Fans log entries out to watchers, each with its own queue (see {@link QueuedWatchHub}). */
export class WatchHub extends QueuedWatchHub<LogEntry, Watcher> {
  constructor() {
    super(1024);
  }

  /** Subscribes first, then queues the backlog (entries after the requested revision), as etcd and kine do. */
  add(prefix: string, afterRevision: number, handlers: WatchHandlers, backlog: () => LogEntry[]): StorageWatch {
    const w: Watcher = { prefix, handlers, queue: [], head: 0, lastRevision: afterRevision, scheduled: false, open: true };
    this.watchers.add(w);
    for (const e of backlog()) this.offer(w, e);
    return { stop: () => this.stop(w) };
  }

  publish(entry: LogEntry): void {
    for (const w of this.watchers) this.offer(w, entry);
  }

  private offer(w: Watcher, e: LogEntry): void {
    if (e.revision <= w.lastRevision || !e.key.startsWith(w.prefix)) return;
    w.lastRevision = e.revision;
    w.queue.push(e);
    this.schedule(w, false);
  }

  protected drain(w: Watcher): void {
    if (this.deliver(w) && w.endError) this.end(w, w.endError);
  }

  protected event(_w: Watcher, entry: LogEntry): StorageWatchEvent {
    return changeEvent(entry);
  }
}
