import { SortedKeys } from '../sorted-keys.js';
import type { LogEntry } from './log.js';

/**
 * The latest entry per key, plus the live keys in sorted order (SortedKeys: inserts and removals in O(log n) plus
 * a block), so a prefix range is found in O(log n) and a page costs O(limit). Keys compare as JS strings (UTF-16 code units),
 * which is byte order for the ASCII keys kube uses.
 */
export class KeyIndex {
  /** Latest entry per key, tombstones included (until compaction drops them): the head of its history. */
  private readonly heads = new Map<string, LogEntry>();
  private readonly keys = new SortedKeys();

  head(key: string): LogEntry | undefined {
    return this.heads.get(key);
  }

  /** The live entry for `key`, if it exists now. */
  live(key: string): LogEntry | undefined {
    const e = this.heads.get(key);
    return e?.value === undefined ? undefined : e;
  }

  set(entry: LogEntry): void {
    const before = this.heads.get(entry.key);
    this.heads.set(entry.key, entry);
    const wasLive = before?.value !== undefined;
    const isLive = entry.value !== undefined;
    if (wasLive === isLive) return;
    if (isLive) this.keys.insert(entry.key);
    else this.keys.delete(entry.key);
  }

  /** Forgets a key whose head is `tombstone` (compaction dropped it). */
  forget(tombstone: LogEntry): void {
    if (this.heads.get(tombstone.key) === tombstone) this.heads.delete(tombstone.key);
  }

  keyAt(i: number): string {
    return this.keys.at(i)!;
  }

  /** Index of the first live key >= `key`. */
  lowerBound(key: string): number {
    return this.keys.lowerBound(key);
  }

  /** The half-open index range of live keys under `prefix`, starting at `startKey` when that is later. */
  range(prefix: string, startKey?: string): [number, number] {
    // Keys with the prefix are contiguous and sort at or after it, so "past the block" is monotone.
    let lo = this.lowerBound(prefix);
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys.at(mid)!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    const end = lo;
    const start = startKey !== undefined && startKey > prefix ? this.lowerBound(startKey) : this.lowerBound(prefix);
    return [Math.min(start, end), end];
  }
}
