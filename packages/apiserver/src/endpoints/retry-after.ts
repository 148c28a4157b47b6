import type { MiddlewareHandler } from 'hono';
import { requestFacts } from '../limits/long-running.js';

/** Paths still served while the server turns requests away: health and metrics, so probes see the truth. */
const EXEMPT_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];

/**
 * kube's WithRetryAfter (`--shutdown-send-retry-after`): once `active` (the shutdown delay elapsed), every request
 * but health checks, /metrics and the server's own (user agent `kube-apiserver/`) is answered as kube answers it:
 * 429 with `Retry-After: 5`, `Connection: close` (the client reconnects, to another server) and kube's plain-text
 * message, while the requests already in flight finish.
 */
export function retryAfterWhen(active: () => boolean): MiddlewareHandler {
  return (c, next) => {
    if (!active()) return next();
    const path = requestFacts(c).url.pathname;
    if (EXEMPT_PREFIXES.some((p) => path.startsWith(p)) || (c.req.header('user-agent') ?? '').startsWith('kube-apiserver/')) return next();
    // Set on the context rather than returned, so a filter this one runs inside of (requestEntry) sees it as c.res.
    c.res = new Response('The apiserver is shutting down, please try again later.\n', {
      status: 429,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Retry-After': '5', Connection: 'close' },
    });
    return Promise.resolve();
  };
}
