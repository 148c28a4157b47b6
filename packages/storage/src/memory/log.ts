import type { LoggedChange } from '../change-event.js';
import type { KeyValue } from '../types.js';

/** One write, as kine stores it: a row per revision (see {@link LoggedChange}). */
export type LogEntry = LoggedChange;

export function entryKeyValue(e: LogEntry): KeyValue {
  return { key: e.key, value: e.value as Uint8Array, createRevision: e.createRevision, modRevision: e.revision };
}

/** The append-only event log, in revision order. Dense until compaction thins out the oldest part. */
export class EventLog {
  private entries: LogEntry[] = [];

  append(entry: LogEntry): void {
    this.entries.push(entry);
  }

  /** Index of the first entry with revision > `revision`. */
  private firstAfter(revision: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  at(revision: number): LogEntry | undefined {
    const i = this.firstAfter(revision - 1);
    const e = this.entries[i];
    return e !== undefined && e.revision === revision ? e : undefined;
  }

  /** Entries with revision > `revision`, oldest first. */
  after(revision: number): LogEntry[] {
    return this.entries.slice(this.firstAfter(revision));
  }

  /** Calls `visit` for each entry with revision > `revision`, oldest first. */
  forEachAfter(revision: number, visit: (e: LogEntry) => void): void {
    for (let i = this.firstAfter(revision); i < this.entries.length; i++) visit(this.entries[i]);
  }

  /**
   * Drops what reads at `revision` or later can no longer need: entries below it that were superseded at or
   * before it, and tombstones below it. Entries at or above it all stay, so a watch after `revision - 1` replays.
   * Returns the dropped tombstones (the caller forgets keys whose last entry was one of them).
   */
  compact(revision: number): LogEntry[] {
    const end = this.firstAfter(revision - 1);
    const latest = new Map<string, LogEntry>();
    for (let i = 0; i < this.entries.length && this.entries[i].revision <= revision; i++) {
      latest.set(this.entries[i].key, this.entries[i]);
    }
    const kept: LogEntry[] = [];
    const droppedTombstones: LogEntry[] = [];
    for (let i = 0; i < end; i++) {
      const e = this.entries[i];
      if (latest.get(e.key) !== e) continue;
      if (e.value === undefined) droppedTombstones.push(e);
      else kept.push(e);
    }
    this.entries = kept.concat(this.entries.slice(end));
    return droppedTombstones;
  }
}
