import { toStatus, type KubeObject, type Status, type WatchEventType } from '@kapi/apimachinery';
import { leavingObject, type CacheEvent } from './cache-event.js';
import type { CacheSubscriber } from './resource-cache.js';
import type { WatcherEvent } from '../storage/interfaces.js';

export type { WatcherEvent } from '../storage/interfaces.js';

export interface CacheWatcherOptions {
  /** Whether an object is in the watcher's selection (namespace, name, label and field selectors). */
  matches(obj: KubeObject): boolean;
  /** Live events at or below this revision were already covered (by the initial state or the backlog). */
  afterRv: number;
  /** Sent first, whatever the buffer limit: the synthetic ADDED events of the initial state, a bookmark after them. */
  initial: WatcherEvent[];
  /**
   * Frames one event in the client's media type (the caller caches encodings of shared objects); a promise when the
   * event must first be converted asynchronously (a conversion webhook), awaited in order.
   */
  frame(event: WatcherEvent): Uint8Array | Promise<Uint8Array>;
  /** Live events buffered for a client that reads slower than they arrive; past this the watch is ended. */
  maxQueued: number;
  /**
   * Stored bytes of the live events buffered (the objects they keep alive, which the cache may have let go of);
   * past this the watch is ended too. Undefined: no bound but the count.
   */
  maxQueuedBytes?: number;
  /** Called once when the watcher ends for any reason, to unsubscribe it. */
  onEnd(): void;
}

/** Frames per chunk written to the stream: one write for a burst instead of one per event. */
const FRAMES_PER_CHUNK = 128;

/**
 * One client's watch on the cache (kube's cacheWatcher). Events are queued as they are dispatched — a writer never
 * waits for a watcher — and framed only when the client's connection asks for more (a pull stream, so a slow
 * socket's backpressure stops the framing). A watcher whose queue of live events passes `maxQueued` is ended: what
 * was not sent is dropped and the stream closes, and the client re-watches from the last resourceVersion it
 * received, which the cache's history still covers, so nothing is lost.
 */
export class CacheWatcher implements CacheSubscriber {
  readonly stream: ReadableStream<Uint8Array>;
  private readonly queue: WatcherEvent[];
  private head = 0;
  /** Events ever queued and ever framed, and how many of the first were initial (exempt from `maxQueued`). */
  private queued: number;
  private sent = 0;
  /** Stored bytes of the live events queued and not yet sent. */
  private pendingBytes = 0;
  private initialCount: number;
  private ending = false;
  private closed = false;
  private wake: (() => void) | undefined;
  /** The resourceVersion of the last event queued: bookmarks are only worth sending past it. */
  lastRv: number;

  constructor(private readonly options: CacheWatcherOptions) {
    this.queue = [...options.initial];
    this.queued = this.initialCount = this.queue.length;
    this.lastRv = options.afterRv;
    this.stream = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => this.pull(controller),
        cancel: () => {
          this.closed = true;
          this.end();
        },
      },
      { highWaterMark: 1 },
    );
  }

  /** The event as this watcher sees it: selection changes turn into ADDED and DELETED, as in kube's cacheWatcher. */
  offer(event: CacheEvent): void {
    if (this.ending || event.rv <= this.options.afterRv) return;
    const seen = this.asSeen(event);
    if (!seen) return;
    seen.bytes = event.bytes ?? 0;
    this.push(seen, event.rv);
  }

  /** History sent to a resuming client: queued like `offer` does, but exempt from `maxQueued` as the initial events are. */
  replay(events: readonly CacheEvent[]): void {
    for (const event of events) {
      if (this.ending || event.rv <= this.options.afterRv) continue;
      const seen = this.asSeen(event);
      if (!seen) continue;
      this.queue.push(seen);
      this.queued++;
      this.initialCount++;
      this.lastRv = event.rv;
    }
    this.notify();
  }

  private asSeen(event: CacheEvent): WatcherEvent | undefined {
    const { matches } = this.options;
    const now = event.type !== 'DELETED' && matches(event.obj);
    const before = event.prev !== undefined && matches(event.prev);
    if (event.type === 'DELETED' && event.prev === undefined) return matches(event.obj) ? { type: 'DELETED', object: event.obj, live: true } : undefined;
    if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: event.obj, live: true };
    if (before) return { type: 'DELETED', object: event.type === 'DELETED' ? event.obj : leavingObject(event), live: true };
    return undefined;
  }

  /** Queues a BOOKMARK (the caller decides whether the client asked for them). */
  bookmark(object: unknown, rv: number): void {
    if (this.ending) return;
    this.queue.push({ type: 'BOOKMARK', object });
    this.queued++;
    this.lastRv = Math.max(this.lastRv, rv);
    this.notify();
  }

  /** Ends the watch after what is queued, with an ERROR event first when given. */
  end(error?: Status): void {
    if (this.ending) return;
    if (error) {
      this.queue.push({ type: 'ERROR', object: error });
      this.queued++;
    }
    this.ending = true;
    this.options.onEnd();
    this.notify();
  }

  get isEnding(): boolean {
    return this.ending;
  }

  private push(event: WatcherEvent, rv: number): void {
    this.queue.push(event);
    this.queued++;
    this.lastRv = rv;
    this.pendingBytes += event.bytes ?? 0;
    const pendingLive = this.queued - Math.max(this.sent, this.initialCount);
    // By bytes only when behind by more than this event: one event bigger than the budget alone ends nobody.
    if (pendingLive > this.options.maxQueued || (pendingLive > 1 && this.pendingBytes > (this.options.maxQueuedBytes ?? Infinity))) {
      // Too far behind: drop what was not sent and end the stream rather than buffer without bound. The client
      // re-watches from the last version it received, and the history still holds everything after it.
      this.queue.length = this.head;
      this.queued = this.sent;
      this.pendingBytes = 0;
      this.end();
      return;
    }
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.head >= this.queue.length && !this.ending) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.closed) return;
    if (this.head >= this.queue.length) {
      this.closed = true;
      controller.close();
      return;
    }
    const frames: Uint8Array[] = [];
    let size = 0;
    while (this.head < this.queue.length && frames.length < FRAMES_PER_CHUNK) {
      const event = this.queue[this.head];
      let frame: Uint8Array;
      try {
        const framed = this.options.frame(event);
        frame = framed instanceof Uint8Array ? framed : await framed;
        if (this.closed) return;
      } catch (err) {
        // An event that cannot be encoded ends the watch with an ERROR event rather than a broken stream (the
        // ERROR already queued, if the watch was ending with one, or this failure).
        const ending = this.queue.slice(this.head).find((e) => e.type === 'ERROR' && e !== event);
        this.queue.length = this.head;
        this.pendingBytes = 0;
        if (ending) this.queue.push(ending);
        else if (event.type !== 'ERROR') this.queue.push({ type: 'ERROR', object: toStatus(err) });
        if (!this.ending) {
          this.ending = true;
          this.options.onEnd();
        }
        continue;
      }
      // A sent event is let go of at once: the objects it holds may be gone from the cache already.
      this.pendingBytes -= event.bytes ?? 0;
      (this.queue as (WatcherEvent | undefined)[])[this.head] = undefined;
      this.head++;
      this.sent++;
      frames.push(frame);
      size += frame.length;
    }
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (frames.length === 0) {
      // Nothing could be framed (not even the ERROR): the stream ends here.
      this.closed = true;
      controller.close();
      return;
    }
    if (frames.length === 1) {
      controller.enqueue(frames[0]);
      return;
    }
    const chunk = new Uint8Array(size);
    let offset = 0;
    for (const f of frames) {
      chunk.set(f, offset);
      offset += f.length;
    }
    controller.enqueue(chunk);
  }
}
