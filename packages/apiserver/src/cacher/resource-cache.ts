import type { KubeObject } from '@kapi/apimachinery';
import type { CacheEvent } from './cache-event.js';

/** A page of a cached collection (the same shape storage lists have). */
export interface CachePage {
  items: KubeObject[];
  /** The key of the last object examined, when the page stopped before the end. */
  lastKey: string;
  more: boolean;
  /** Objects after the last examined one, selected or not. */
  remaining: number;
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
}

/** Receives the events of one collection, in revision order. */
export interface CacheSubscriber {
  offer(event: CacheEvent): void;
}

/** First index in sorted `keys` whose key is not below `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  private sorted: string[] | undefined;
  private history: CacheEvent[] = [];
  private head = 0;
  /** The window holds every event after this revision. */
  oldestRv = 0;
  readonly subscribers = new Set<CacheSubscriber>();

  constructor(readonly prefix: string, private readonly capacity: number) {}

  /** Starts over from a full listing at `revision`: no history before it. */
  reset(revision: number, objects: Iterable<[string, KubeObject]>): void {
    this.objects.clear();
    for (const [key, obj] of objects) this.objects.set(key, obj);
    this.sorted = undefined;
    this.history = [];
    this.head = 0;
    this.oldestRv = revision;
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** Applies one event to the state and the window, then hands it to every subscriber. */
  apply(event: CacheEvent): void {
    if (event.type === 'DELETED') {
      if (this.objects.delete(event.key)) this.sorted = undefined;
    } else {
      if (!this.objects.has(event.key)) this.sorted = undefined;
      this.objects.set(event.key, event.obj);
    }
    this.history.push(event);
    if (this.history.length - this.head > this.capacity) this.forgetThrough(this.history[this.head].rv);
    for (const s of this.subscribers) s.offer(event);
  }

  /** Drops the window's events at or below `revision` (compaction, capacity): watches from before it get 410. */
  forgetThrough(revision: number): void {
    if (revision <= this.oldestRv) return;
    while (this.head < this.history.length && this.history[this.head].rv <= revision) this.head++;
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

  /** Sorted keys and objects under `prefix`, now or (rewinding the window) at an older revision. */
  private stateAt(prefix: string, at: number | undefined): { keys: string[]; get(key: string): KubeObject | undefined } {
    this.sorted ??= [...this.objects.keys()].sort();
    const from = lowerBound(this.sorted, prefix);
    const to = lowerBound(this.sorted, prefixEnd(prefix));
    if (at === undefined) return { keys: this.sorted.slice(from, to), get: (key) => this.objects.get(key) };
    const state = new Map<string, KubeObject>();
    for (let i = from; i < to; i++) state.set(this.sorted[i], this.objects.get(this.sorted[i])!);
    for (let i = this.history.length - 1; i >= this.head && this.history[i].rv > at; i--) {
      const e = this.history[i];
      if (!e.key.startsWith(prefix)) continue;
      if (e.type === 'ADDED') state.delete(e.key);
      else state.set(e.key, e.prev ?? e.obj);
    }
    return { keys: [...state.keys()].sort(), get: (key) => state.get(key) };
  }

  /** A page of the collection as storage would list it: in key order, from `startKey`, cut after `limit` selected items. */
  list(options: CacheListOptions): CachePage {
    const { keys, get } = this.stateAt(options.prefix, options.at);
    let i = options.startKey ? lowerBound(keys, options.startKey) : 0;
    const items: KubeObject[] = [];
    let lastKey = '';
    for (; i < keys.length; i++) {
      const obj = get(keys[i])!;
      if (options.selects(obj)) items.push(obj);
      if (options.limit && items.length >= options.limit) {
        lastKey = keys[i];
        i++;
        break;
      }
    }
    return { items, lastKey, more: i < keys.length, remaining: keys.length - i };
  }
}
