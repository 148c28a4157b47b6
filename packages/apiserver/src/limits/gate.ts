import { isPromise } from '../maybe.js';
import type { StatusError } from '@kapi/apimachinery';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AuthorizationAttributes } from '../auth/types.js';
import { withAnswerHeaders } from '../endpoints/answer-headers.js';
import { errorResponse } from '../endpoints/respond.js';
import { onBodyEnd } from '../endpoints/response-end.js';
import { terminated } from '../metrics/termination.js';
import { holdUntilAnswered } from './hold.js';
import { isMutating } from './inflight.js';
import { requestFacts } from './long-running.js';
import { inFlightPeaks, type InFlightMetrics } from './middleware.js';

/** kube's hard limit on how long a request may wait in a queue, whatever its deadline. */
export const MAX_REQUEST_WAIT_MS = 60_000;

/** What a request gate is told of a request: kube's RequestDigest (who and what) and what its work estimate reads. */
export interface GatedRequest {
  /** The request as it was authorized: user, verb, resource or non-resource path. */
  attributes: AuthorizationAttributes;
  /** The request's query (list options of a list or watch, for its work estimate). */
  query: URLSearchParams;
  /** How long the request may wait for a seat before it is turned away, in ms (a quarter of its deadline, ≤ 1 min). */
  waitLimitMs: number;
  /** Aborts when the client goes away; made on first use (it costs), so ask only when the request must wait. */
  signal(): AbortSignal;
}

/** A gate's answer for one request. */
export interface GateDecision {
  /** Headers every answer to the request carries, a rejection too (kube's `X-Kubernetes-PF-*`). */
  headers?: Record<string, string>;
  /** Set when the request may not run: it is answered with this error (429 with `Retry-After`). */
  rejection?: StatusError;
  /** Frees what the request holds: called once, when it is answered (a watch: once its stream has begun). */
  release(): void;
  /**
   * Called once a watch is over (its stream ended, failed or was left by its client, or it was answered without
   * one), for a gate that counts the watches open (kube's watch tracker). Not called for other requests.
   */
  watchEnded?(): void;
}

/**
 * What decides whether a request may run now, later or not at all: kube's WithPriorityAndFairness in place of
 * WithMaxInFlightLimit. A plugin sets one with `host.setRequestGate`; without one the in-flight limits apply.
 */
export interface RequestGate {
  admit(request: GatedRequest): GateDecision | Promise<GateDecision>;
}

/** Calls `ended` once the watch answered in `c` is over: when its stream ends, or now if it has none. */
function followWatch(c: Context, ended: () => void): void {
  const res = c.res;
  if (res.body) c.res = new Response(onBodyEnd(res.body, ended), res);
  else ended();
}

/** The attributes the access filter authorized the request with (set on the context as `attributes`). */
const contextAttributes = (c: Context) => (c.get as (key: string) => unknown)('attributes') as AuthorizationAttributes | undefined;

/**
 * The filter of a request gate, where the in-flight limits would be (after authentication, so the gate knows the
 * user). Long-running requests other than watches are not gated (kube's APF skips them); a watch holds its seats
 * until its stream has begun.
 */
export function gateRequests(gate: RequestGate, defaultWaitLimitMs: number, metrics?: InFlightMetrics): MiddlewareHandler {
  // What runs now, by kind, for apiserver_current_inflight_requests (kube reports it under APF too).
  const inFlight = { readOnly: 0, mutating: 0 };
  const peaks = inFlightPeaks(inFlight, metrics);
  /** The request, once the gate has decided: turned away, or run holding what it was given until answered. */
  const proceed = (c: Context, next: Next, attributes: AuthorizationAttributes, decision: GateDecision): Promise<Response | void> => {
    if (decision.rejection) {
      decision.release();
      const res = terminated(errorResponse(decision.rejection));
      for (const name in decision.headers) res.headers.set(name, decision.headers[name]);
      return Promise.resolve(res);
    }
    const mutating = isMutating(c.req.method);
    const kind = mutating ? 'mutating' : 'readOnly';
    inFlight[kind]++;
    peaks.observe(mutating);
    const release = () => {
      inFlight[kind]--;
      decision.release();
    };
    const watch = attributes.verb === 'watch';
    const run = !(watch && decision.watchEnded)
      ? () => holdUntilAnswered(c, watch, next, release)
      : () => holdUntilAnswered(c, watch, next, release).then(() => followWatch(c, decision.watchEnded!), (err) => {
          decision.watchEnded!();
          throw err;
        });
    return decision.headers ? withAnswerHeaders(c, decision.headers, run) : run();
  };
  return (c, next) => {
    const attributes = contextAttributes(c);
    const facts = requestFacts(c);
    if (!attributes || (facts.longRunning && attributes.verb !== 'watch')) return next();
    const deadlineMs = (c.get as (key: string) => unknown)('deadlineMs') as number | undefined;
    const waitLimitMs = Math.min(MAX_REQUEST_WAIT_MS, deadlineMs !== undefined ? deadlineMs / 4 : defaultWaitLimitMs);
    const decided = gate.admit({ attributes, query: facts.url.searchParams, waitLimitMs, signal: () => c.req.raw.signal });
    // Most requests are admitted at once: only one that waits for seats takes a turn of the event loop here.
    return isPromise(decided) ? decided.then((decision) => proceed(c, next, attributes, decision)) : proceed(c, next, attributes, decided);
  };
}

