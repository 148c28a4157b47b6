import type { KubeObject } from '@kapi/apimachinery';
import { lowerBoundIn, SortedKeys } from '@kapi/storage';
import type { CacheEvent } from './cache-event.js';

/** A page of a cached collection (the same shape storage lists have). */
export interface CachePage {
  items: KubeObject[];
  /** The key of the last object examined, when the page stopped before the end. */
  lastKey: string;
  more: boolean;
  /** Objects after the last examined one, selected or not. */
  remaining: number;
  /** The page stopped at the scan budget, not at its limit: continue after `lastKey` for the rest. */
  partial?: boolean;
}

export interface CacheListOptions {
  /** The collection, or one namespace of it. */
  prefix: string;
  /** Start at this key (inclusive): continue tokens. */
  startKey?: string;
  /** At most this many selected items (0: all). */
  limit: number;
  /** Read the collection as it was at this revision (undefined: now). Must be within the history. */
  at?: number;
  selects(obj: KubeObject): boolean;
  /** Examine at most this many keys, then stop with `partial` (so a long selection can yield between slices). */
  scan?: number;
}

/** Receives the events of one collection, in revision order. */
export interface CacheSubscriber {
  offer(event: CacheEvent): void;
}

/** Every key starting with `prefix` sorts below this one. */
const prefixEnd = (prefix: string) => `${prefix}\uffff`;

/**
 * The watch cache of one collection (one storage key prefix): its current objects, the window of recent events,
 * and the watchers of it. State at an older revision inside the window (a cache snapshot) is the current state
 * with the later events undone.
 */
export class ResourceCache {
  private readonly objects = new Map<string, KubeObject>();
  /** The keys in order, made on the first list and kept from then on. */
  private sorted: SortedKeys | undefined;
  private history: CacheEvent[] = [];
  private head = 0;
  /** Stored bytes of the events in the window (CacheEvent.bytes). */
  historyBytes = 0;
  /** The window holds every event after this revision. */
  oldestRv = 0;
  /** Whether the collection holds storage's state (a collection added while the server runs is filled later). */
  filled = false;
  readonly subscribers = new Set<CacheSubscriber>();
  /** Counts for kube's apiserver_watch_cache_* metrics: events applied, events handed to watchers, fills. */
  readonly stats = { received: 0, dispatched: 0, initializations: 0 };

  constructor(readonly prefix: string, private readonly capacity: number) {}

  /** Starts over from a full listing at `revision`: no history before it. */
  reset(revision: number, objects: Iterable<[string, KubeObject]>): void {
    this.stats.initializations++;
    this.filled = true;
    this.objects.clear();
    for (const [key, obj] of objects) this.objects.set(key, obj);
    this.sorted = undefined;
    this.history = [];
    this.head = 0;
    this.historyBytes = 0;
    this.oldestRv = revision;
  }

  /** The revision of the oldest event in the window, if it has any. */
  get firstRv(): number | undefined {
    return this.head < this.history.length ? this.history[this.head].rv : undefined;
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** The number of objects in the collection. */
  get size(): number {
    return this.objects.size;
  }

  /** Applies one event to the state and the window, then hands it to every subscriber. */
  apply(event: CacheEvent): void {
    if (event.type === 'DELETED') {
      if (this.objects.delete(event.key)) this.sorted?.delete(event.key);
    } else {
      if (!this.objects.has(event.key)) this.sorted?.insert(event.key);
      this.objects.set(event.key, event.obj);
    }
    this.history.push(event);
    this.historyBytes += event.bytes ?? 0;
    if (this.history.length - this.head > this.capacity) this.forgetThrough(this.history[this.head].rv);
    this.stats.received++;
    this.stats.dispatched += this.subscribers.size;
    for (const s of this.subscribers) s.offer(event);
  }

  /** Drops the window's events at or below `revision` (compaction, capacity): watches from before it get 410. */
  forgetThrough(revision: number): void {
    if (revision <= this.oldestRv) return;
    while (this.head < this.history.length && this.history[this.head].rv <= revision) {
      this.historyBytes -= this.history[this.head].bytes ?? 0;
      // Let go of a forgotten event at once (the array itself is compacted only now and then): its objects may be big.
      (this.history as (CacheEvent | undefined)[])[this.head++] = undefined;
    }
    if (this.head > 1024 && this.head * 2 > this.history.length) {
      this.history = this.history.slice(this.head);
      this.head = 0;
    }
    this.oldestRv = revision;
  }

  /** Events after `revision` under `prefix`, or undefined when the window no longer reaches back that far. */
  eventsAfter(revision: number, prefix: string): CacheEvent[] | undefined {
    if (revision < this.oldestRv) return undefined;
    const out: CacheEvent[] = [];
    for (let i = this.history.length - 1; i >= this.head && this.history[i].rv > revision; i--) {
      if (this.history[i].key.startsWith(prefix)) out.push(this.history[i]);
    }
    return out.reverse();
  }

  /**
   * A page of the collection as storage would list it: in key order, from `startKey`, cut after `limit` selected
   * items. At a past revision (a snapshot) the current state is read through the changes made since, undone: only
   * the keys the window touched after that revision are looked at, so a page costs its own size plus those keys.
   */
  list(options: CacheListOptions): CachePage {
    const { prefix, at } = options;
    this.sorted ??= SortedKeys.from([...this.objects.keys()].sort());
    const keys = this.sorted;
    const to = keys.lowerBound(prefixEnd(prefix));
    // For a snapshot: each key changed after `at`, with its object then (undefined: it did not exist), and the keys
    // that existed then but not now.
    const then = new Map<string, KubeObject | undefined>();
    const gone: string[] = [];
    if (at !== undefined) {
      for (let i = this.history.length - 1; i >= this.head && this.history[i].rv > at; i--) {
        const e = this.history[i];
        if (e.key.startsWith(prefix)) then.set(e.key, e.type === 'ADDED' ? undefined : (e.prev ?? e.obj));
      }
      for (const [key, obj] of then) if (obj && !this.objects.has(key)) gone.push(key);
      gone.sort();
    }
    const start = options.startKey && options.startKey > prefix ? options.startKey : prefix;
    let i = keys.lowerBound(start);
    let j = lowerBoundIn(gone, start);
    const items: KubeObject[] = [];
    let lastKey = '';
    // The last key looked at, where a page stopped by the scan budget continues after.
    let examined = '';
    let budget = options.scan ?? Infinity;
    while (i < to || j < gone.length) {
      if (budget-- <= 0) return { items, lastKey: examined, more: true, remaining: to - i + (gone.length - j), partial: true };
      const key = j >= gone.length || (i < to && keys.at(i)! < gone[j]) ? keys.at(i++)! : gone[j++];
      examined = key;
      const obj = then.has(key) ? then.get(key) : this.objects.get(key);
      if (!obj) continue;
      if (options.selects(obj)) items.push(obj);
      if (options.limit && items.length >= options.limit) {
        lastKey = key;
        break;
      }
    }
    if (!lastKey) return { items, lastKey, more: false, remaining: 0 };
    // What follows the page at that revision: the keys after it, less those that did not exist then.
    let remaining = to - i + (gone.length - j);
    for (const [key, obj] of then) if (!obj && key > lastKey && this.objects.has(key)) remaining--;
    return { items, lastKey, more: remaining > 0, remaining };
  }
}
