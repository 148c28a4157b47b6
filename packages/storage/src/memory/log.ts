import type { KeyValue, StorageWatchEvent } from '../types.js';

/**
 * One write, as kine stores it: a row per revision. A delete appends a tombstone (`value` undefined). The
 * previous value is kept inline (not as a link to the previous entry) so an event can carry its `prevKv` after
 * compaction dropped that entry, and so retained entries never pin a chain of history.
 */
export interface LogEntry {
  readonly revision: number;
  readonly key: string;
  /** The new value; undefined for a tombstone. */
  readonly value: Uint8Array | undefined;
  /** The key's create revision (for a tombstone: that of the deleted value). */
  readonly createRevision: number;
  /** Revision of the key's previous entry (a value or a tombstone); 0 when none. */
  readonly prevRevision: number;
  /** The key's value before this write; undefined when it did not exist. */
  readonly prevValue: Uint8Array | undefined;
}

export function entryKeyValue(e: LogEntry): KeyValue {
  return { key: e.key, value: e.value as Uint8Array, createRevision: e.createRevision, modRevision: e.revision };
}

export function entryEvent(e: LogEntry): StorageWatchEvent {
  const prevKv: KeyValue | undefined =
    e.prevValue === undefined
      ? undefined
      : { key: e.key, value: e.prevValue, createRevision: e.createRevision, modRevision: e.prevRevision };
  if (e.value === undefined) {
    return {
      type: 'DELETE',
      kv: { key: e.key, value: e.prevValue as Uint8Array, createRevision: e.createRevision, modRevision: e.revision },
      prevKv,
      created: false,
    };
  }
  const event: StorageWatchEvent = { type: 'PUT', kv: entryKeyValue(e), created: e.createRevision === e.revision };
  if (prevKv) event.prevKv = prevKv;
  return event;
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
