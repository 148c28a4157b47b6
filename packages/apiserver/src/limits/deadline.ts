import type { RequestDeadline } from '../registry/context.js';

/**
 * A request's deadline whose AbortSignal is made only when something asks for it (a webhook call, a body still
 * being read): most requests finish without anyone listening, and an AbortController per request is a measurable
 * share of a small request's cost. Expiring before the signal exists is remembered, so a later signal starts aborted.
 */
export class LazyDeadline implements RequestDeadline {
  #controller?: AbortController;
  #reason?: unknown;
  #expired = false;

  constructor(readonly at: number) {}

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#expired) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Whether the deadline has passed and was acted on (the request was answered 504). */
  get expired(): boolean {
    return this.#expired;
  }

  expire(reason: unknown): void {
    if (this.#expired) return;
    this.#expired = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
