import { newTooLargeRevisionError } from '../errors.js';

interface Waiter {
  revision: number;
  key: string;
  resolve(): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Reads at a revision not written yet wait up to `timeoutMs` for it (kube-apiserver waits likewise before
 * answering "Too large resource version"); with 0 they fail at once.
 */
export class RevisionWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly timeoutMs: number, private readonly current: () => number) {}

  wait(revision: number, key: string): Promise<void> {
    if (revision <= this.current()) return Promise.resolve();
    if (this.timeoutMs <= 0) return Promise.reject(newTooLargeRevisionError(revision, this.current(), key));
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        revision,
        key,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          reject(newTooLargeRevisionError(revision, this.current(), key));
        }, this.timeoutMs),
      };
      this.waiters.add(w);
    });
  }

  /** Called after each write. */
  advanced(current: number): void {
    for (const w of this.waiters) {
      if (w.revision > current) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve();
    }
  }

  rejectAll(err: Error): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(err);
    }
    this.waiters.clear();
  }
}
