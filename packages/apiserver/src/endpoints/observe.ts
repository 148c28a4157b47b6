import type { Context, MiddlewareHandler } from 'hono';
import { isTermination } from '../metrics/termination.js';
import { requestFacts } from '../limits/long-running.js';
import { requestAuditId } from './audit-id.js';
import type { RequestInfo } from './request-info.js';
import { contentLengthOf, onBodyEnd } from './response-end.js';

/** One request as the observers see it. */
export interface ObservedRequest {
  request: Request;
  url: URL;
  /** The resource request's info; undefined for non-resource paths. */
  info: RequestInfo | undefined;
  longRunning: boolean;
  auditID: string;
  /** The client's address and port, when the transport gave them. */
  readonly remote: string | undefined;
}

/** How a request ended. */
export interface RequestOutcome {
  status: number;
  /** Bytes of the response body: its Content-Length, or what was streamed; undefined when not known. */
  bytes: number | undefined;
  /** From the request's arrival to its last byte (a watch: to its end). */
  seconds: number;
  /** The server refused it in self-defense (limits, timeout). */
  terminated: boolean;
}

/** Something told about every request: the request metrics, the HTTP log. */
export interface RequestObserver {
  /** A long-running request (a watch) is about to stream. */
  started?(request: ObservedRequest): void;
  /** The response is complete; for a streamed one, when its body ended or the client went away. */
  finished(request: ObservedRequest, outcome: RequestOutcome): void;
}

interface TransportEnv {
  remoteAddress?: string;
  remotePort?: number;
  incoming?: { socket?: { remoteAddress?: string; remotePort?: number } };
}

/** The client's `address:port` (`[v6]:port`) as the transport gave it. */
function remoteOf(env: TransportEnv | undefined): string | undefined {
  const address = env?.remoteAddress ?? env?.incoming?.socket?.remoteAddress;
  const port = env?.remotePort ?? env?.incoming?.socket?.remotePort;
  return address ? (port ? `${address.includes(':') ? `[${address}]` : address}:${port}` : address) : undefined;
}

/** An ObservedRequest; a class, so every request's shares one shape and the lazy `remote` is on the prototype. */
class Observed implements ObservedRequest {
  constructor(
    readonly request: Request,
    readonly url: URL,
    readonly info: RequestInfo | undefined,
    readonly longRunning: boolean,
    readonly auditID: string,
    private readonly env: TransportEnv | undefined,
    /** When the request arrived (performance.now()). */
    readonly started: number,
  ) {}

  /** Read when an observer asks (the HTTP log, at -v=3), not on every request. */
  get remote(): string | undefined {
    return remoteOf(this.env);
  }
}

/** Tells every observer how the request ended. */
function report(observers: readonly RequestObserver[], observed: Observed, status: number, bytes: number | undefined, terminated: boolean) {
  const outcome = { status, bytes, seconds: (performance.now() - observed.started) / 1000, terminated };
  for (const o of observers) o.finished(observed, outcome);
}

/**
 * The outermost filter after the audit ID (kube's WithLogging and the route instrumentation in one place): times
 * each request to its last byte and tells the observers how it ended. A streamed body (a watch, a list sent in
 * slices) is followed to its end; other answers carry their Content-Length, so they are not touched.
 */
export function observeRequests(observers: readonly RequestObserver[]): MiddlewareHandler {
  // Not an async function: a request costs one `then` here, and nothing is allocated for its outcome until it ends.
  const answered = (c: Context, observed: Observed) => {
    const res = c.res;
    const streamed = observed.longRunning || (observed.info !== undefined && (observed.request.method === 'GET' || observed.request.method === 'HEAD'));
    const length = streamed ? contentLengthOf(res) : undefined;
    if (streamed && length === undefined && res.body) {
      c.res = new Response(onBodyEnd(res.body, (bytes) => report(observers, observed, res.status, bytes, isTermination(res))), res);
    } else {
      report(observers, observed, res.status, length, isTermination(res));
    }
  };
  return (c, next) => {
    const started = performance.now();
    const { url, info, longRunning } = requestFacts(c);
    const observed = new Observed(c.req.raw, url, info, longRunning, requestAuditId(c), c.env as TransportEnv | undefined, started);
    if (longRunning) for (const o of observers) o.started?.(observed);
    const failed = (err: unknown) => {
      report(observers, observed, 500, undefined, false);
      throw err;
    };
    let handled: Promise<void>;
    try {
      handled = next();
    } catch (err) {
      return failed(err);
    }
    return handled.then(() => answered(c, observed), failed);
  };
}
