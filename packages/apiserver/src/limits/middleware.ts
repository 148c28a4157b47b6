import type { Context, MiddlewareHandler } from 'hono';
import type { UserInfo } from '../admission/types.js';
import { errorResponse } from '../endpoints/respond.js';
import type { ApiServerMetrics } from '../metrics/index.js';
import { terminated } from '../metrics/termination.js';
import { DEFAULT_MAX_RESOURCE_WRITE_BYTES, tooLarge } from './body-limit.js';
import { LazyDeadline } from './deadline.js';
import { setBodyLimit, setRequestDeadline } from './request-body.js';
import { createInFlightLimiter, DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT, isMutating, tooManyRequests } from './inflight.js';
import { holdUntilAnswered } from './hold.js';
import { requestFacts } from './long-running.js';
import { createWatermark } from './watermark.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestDeadline, timedOut } from './timeout.js';

/** kube-apiserver's request limits; every one is optional and defaults to kube's default. 0 turns a limit off. */
export interface RequestLimits {
  /** `--max-resource-write-bytes`: the largest request body, in bytes (413 beyond). Default 3 MiB. */
  maxResourceWriteBytes?: number;
  /** `--max-requests-inflight`: concurrent read-only requests, watches excepted (429 beyond). Default 400. */
  maxRequestsInflight?: number;
  /** `--max-mutating-requests-inflight`: concurrent POST/PUT/PATCH/DELETE requests (429 beyond). Default 200. */
  maxMutatingRequestsInflight?: number;
  /** `--request-timeout`: how long a non-long-running request may take, in ms (504 beyond). Default 60 s. */
  requestTimeoutMs?: number;
  /** V8 heap in use beyond which POST, PUT and PATCH get 429 (limits/memory.ts). Default 85% of the heap limit. */
  maxHeapBytes?: number;
}

/** Where the in-flight limits report (kube's apiserver_current_inflight_requests and rejected-request counters). */
export type InFlightMetrics = Pick<ApiServerMetrics, 'currentInflight' | 'flowcontrolRejected' | 'onCollect'>;

/** The user an earlier middleware (authentication) put in the context as `user`, if any. */
export function contextUser(c: Context, key: 'user' | 'impersonatedBy' = 'user'): UserInfo | undefined {
  const user = (c.get as (key: string) => unknown)(key) as UserInfo | undefined;
  return user && typeof user.username === 'string' ? user : undefined;
}

/**
 * kube's WithTimeoutForNonLongRunningRequests and WithRequestDeadline: a request still running after
 * `--request-timeout` (or its own shorter `?timeout=`) is answered 504 Timeout. The handler is not killed, but its
 * request body errors (a handler waiting on it fails and writes nothing) and its response is thrown away.
 */
export function requestTimeout(limits: RequestLimits = {}): MiddlewareHandler {
  const maxMs = limits.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return (c, next) => {
    const { url, longRunning } = requestFacts(c);
    if (maxMs <= 0 || longRunning) return next();
    let ms: number;
    try {
      ms = requestDeadline(url.searchParams, maxMs);
    } catch (err) {
      return Promise.resolve(errorResponse(err));
    }
    // The request gate lets a request wait for a quarter of this (kube's request wait limit).
    c.set('deadlineMs' as never, ms as never);
    // What the request path sees of it (RequestContext.deadline): webhooks get the time left, writes check it, and
    // a body still being read fails with it (limits/request-body.ts).
    const deadline = new LazyDeadline(Date.now() + ms);
    setRequestDeadline(c, deadline);
    // One promise settled by whichever comes first, the answer or the deadline (no race of two promises).
    return new Promise<Response | void>((resolve, reject) => {
      const timer = setTimeout(() => {
        handled.catch(() => {});
        deadline.expire(timedOut());
        resolve(terminated(carriesBody(c.req.raw) ? closing(errorResponse(timedOut())) : errorResponse(timedOut())));
      }, ms);
      const handled = next();
      handled.then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  };
}

/**
 * kube's WithMaxInFlightLimit: at most `--max-requests-inflight` read-only and `--max-mutating-requests-inflight`
 * mutating requests run at once; one more is 429 TooManyRequests with `Retry-After: 1`. Long-running requests are
 * not counted, and members of system:masters are never turned away (when authentication ran before this).
 */
export function maxInFlight(limits: RequestLimits = {}, metrics?: InFlightMetrics): MiddlewareHandler {
  const limiter = createInFlightLimiter(
    limits.maxRequestsInflight ?? DEFAULT_MAX_REQUESTS_INFLIGHT,
    limits.maxMutatingRequestsInflight ?? DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
  );
  const peaks = inFlightPeaks(limiter.inFlight, metrics);
  return async (c, next) => {
    if (requestFacts(c).longRunning) return next();
    const mutating = isMutating(c.req.method);
    const release = limiter.acquire(mutating);
    if (!release) {
      if (contextUser(c)?.groups.includes('system:masters')) return next();
      metrics?.flowcontrolRejected.add('', mutating ? 'mutating' : 'readOnly', 'concurrency-limit');
      return terminated(errorResponse(tooManyRequests()));
    }
    peaks.observe(mutating);
    await holdUntilAnswered(c, false, next, release);
  };
}

/**
 * apiserver_current_inflight_requests: the most requests in flight within the last second, by kind, read from
 * `inFlight` (the in-flight limiter's counts, or the request gate's).
 */
export function inFlightPeaks(inFlight: { readOnly: number; mutating: number }, metrics?: InFlightMetrics) {
  const peak = { readOnly: createWatermark(), mutating: createWatermark() };
  metrics?.onCollect(() => {
    for (const kind of ['readOnly', 'mutating'] as const) metrics.currentInflight.set({ request_kind: kind }, peak[kind].read(inFlight[kind]));
  });
  return {
    observe(mutating: boolean) {
      const kind = mutating ? 'mutating' : 'readOnly';
      peak[kind].observe(inFlight[kind]);
    },
  };
}

/**
 * `--max-resource-write-bytes`: a body announced larger than the limit is 413 at once; any other body is counted
 * as the handler reads it (limits/request-body.ts), and reading fails with 413 past the limit, so no more than the
 * limit is ever buffered.
 */
export function maxBodySize(limits: RequestLimits = {}): MiddlewareHandler {
  const limit = limits.maxResourceWriteBytes ?? DEFAULT_MAX_RESOURCE_WRITE_BYTES;
  return (c, next) => {
    const raw = c.req.raw;
    // Nothing here asks for `.body`: that would make the node server build a whole Request and web stream for it.
    if (limit <= 0 || !carriesBody(raw)) return next();
    if (Number(raw.headers.get('content-length')) > limit) return Promise.resolve(closing(errorResponse(tooLarge(limit))));
    setBodyLimit(c, limit);
    return next().then(() => {
      if (c.res.status === 413) closing(c.res);
    });
  };
}

/** GET and HEAD bodies are never read (kube ignores them), so they need no limit. */
const carriesBody = (raw: Request) => raw.method !== 'GET' && raw.method !== 'HEAD';

/**
 * Asks the client to close the connection after an answer given before its body was read (as Go's server does):
 * the node server discards a bounded rest of an unread body and then drops the connection, and a client reusing
 * it for its next request would see that request fail.
 */
function closing(res: Response): Response {
  try {
    res.headers.set('Connection', 'close');
  } catch {
    // immutable headers: nothing to ask
  }
  return res;
}
