import { newTooManyRequests } from '@kapi/apimachinery';
import type { MiddlewareHandler } from 'hono';
import { getHeapStatistics } from 'node:v8';
import { terminated } from '../metrics/termination.js';
import { errorResponse } from '../endpoints/respond.js';

/** The share of V8's heap limit past which writes that add data are refused. */
export const DEFAULT_HEAP_BUDGET_SHARE = 0.85;
/** How often (ms) the heap is measured; between measurements the last one stands. */
const SAMPLE_MS = 100;

/**
 * A memory budget, so that the server refuses (429, Retry-After) rather than dies of "JavaScript heap out of
 * memory": while the V8 heap holds more than `maxHeapBytes` (default 85% of the heap limit), POST, PUT and PATCH
 * are answered 429 `TooManyRequests`. Reads, watches and deletes (which free memory) go on. `0` turns it off.
 */
export function memoryBudget(maxHeapBytes: number | undefined, heapUsed: () => number = () => getHeapStatistics().used_heap_size): MiddlewareHandler {
  const budget = maxHeapBytes ?? Math.floor(getHeapStatistics().heap_size_limit * DEFAULT_HEAP_BUDGET_SHARE);
  if (budget <= 0) return (_c, next) => next();
  let measuredAt = 0;
  let used = 0;
  return (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const now = Date.now();
    if (now - measuredAt >= SAMPLE_MS) {
      used = heapUsed();
      measuredAt = now;
    }
    if (used <= budget) return next();
    return Promise.resolve(terminated(errorResponse(newTooManyRequests('the server is short of memory; retry later', 1))));
  };
}
