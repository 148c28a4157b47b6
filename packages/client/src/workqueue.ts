export interface WorkQueueOptions {
  /** The first retry of a failing item waits this long, doubling per failure (5 ms). */
  baseDelayMs?: number;
  /** ... up to this (1000 s). */
  maxDelayMs?: number;
  /** Retries across all items are limited to this many per second (10), with bursts of `burst` (100). */
  qps?: number;
  burst?: number;
}

/**
 * A controller's work queue, as client-go's: an item is queued once however often it is added, is never handed to
 * two workers at once (an add while it is processed queues it again after `done`), and failing items come back
 * later and later (`addRateLimited`) until `forget`.
 */
export class WorkQueue<K = string> {
  private readonly queue: K[] = [];
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly failures = new Map<K, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters: ((key: K | undefined) => void)[] = [];
  private shuttingDown = false;
  private tokens: number;
  private tokensAt = Date.now();

  constructor(private readonly options: WorkQueueOptions = {}) {
    this.tokens = options.burst ?? 100;
  }

  get length(): number {
    return this.queue.length;
  }

  get isShutDown(): boolean {
    return this.shuttingDown;
  }

  /** Queues the item, unless it is already waiting. */
  add(key: K): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
    } else {
      this.queue.push(key);
    }
  }

  /** Queues the item after `ms`. */
  addAfter(key: K, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, ms);
    this.timers.add(timer);
  }

  /** Queues a failed item again after its backoff: the longer of its own (doubling) and the overall rate limit's. */
  addRateLimited(key: K): void {
    this.addAfter(key, this.when(key));
  }

  /** How long the next retry of `key` waits; counts a failure. */
  private when(key: K): number {
    const { baseDelayMs = 5, maxDelayMs = 1_000_000, qps = 10, burst = 100 } = this.options;
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    const own = Math.min(maxDelayMs, baseDelayMs * 2 ** failures);
    // Token bucket: a token per 1/qps s; a retry without one waits for the next.
    const now = Date.now();
    this.tokens = Math.min(burst, this.tokens + ((now - this.tokensAt) / 1000) * qps);
    this.tokensAt = now;
    this.tokens -= 1;
    const bucket = this.tokens >= 0 ? 0 : (-this.tokens / qps) * 1000;
    return Math.max(own, bucket);
  }

  /** Clears the item's failure count: it succeeded (or is given up on). */
  forget(key: K): void {
    this.failures.delete(key);
  }

  /** How many times the item failed since it was last forgotten. */
  numRequeues(key: K): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next item to work on, waiting for one; undefined once the queue is shut down. Call `done` after. */
  get(): Promise<K | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    if (this.queue.length > 0) {
      const key = this.queue.shift()!;
      this.dirty.delete(key);
      this.processing.add(key);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The item's work is finished; if it was added meanwhile, it is queued again. */
  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.dirty.delete(key);
      this.add(key);
    }
  }

  /** Stops handing out items: `get` resolves undefined from now on, queued and delayed items are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}
