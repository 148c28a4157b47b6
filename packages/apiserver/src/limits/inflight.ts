import { newTooManyRequests, type StatusError } from '@kapi/apimachinery';

/** kube-apiserver's defaults for `--max-requests-inflight` and `--max-mutating-requests-inflight`. */
export const DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
export const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isMutating = (method: string): boolean => MUTATING_METHODS.has(method.toUpperCase());

/** kube's answer when a limit is reached (its maxinflight filter's message), retried by clients after 1 s. */
export const tooManyRequests = (): StatusError => newTooManyRequests('Too many requests, please try again later.', 1);

export interface InFlightLimiter {
  /** Takes a slot for a request; returns its release, or undefined when the request's limit is reached. */
  acquire(mutating: boolean): (() => void) | undefined;
  /** Requests holding a slot now, by kind (for tests and metrics). */
  readonly inFlight: { readOnly: number; mutating: number };
}

/**
 * Two independent counters, as kube's WithMaxInFlightLimit keeps: read-only requests against `maxReadOnly`,
 * mutating ones (POST, PUT, PATCH, DELETE) against `maxMutating`. A limit of 0 means no limit. Releasing is
 * idempotent, so a request released twice cannot free another's slot.
 */
export function createInFlightLimiter(maxReadOnly: number, maxMutating: number): InFlightLimiter {
  const inFlight = { readOnly: 0, mutating: 0 };
  return {
    inFlight,
    acquire(mutating) {
      const key = mutating ? 'mutating' : 'readOnly';
      const max = mutating ? maxMutating : maxReadOnly;
      if (max > 0 && inFlight[key] >= max) return undefined;
      inFlight[key]++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight[key]--;
      };
    },
  };
}
