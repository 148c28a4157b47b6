/** Waits `ms`, or less when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Exponential backoff with jitter: `initialMs` doubling to `maxMs`, reset after a success. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs = 800,
    private readonly maxMs = 30_000,
  ) {}

  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return base * (1 + Math.random() * 0.5);
  }

  reset(): void {
    this.attempt = 0;
  }
}
