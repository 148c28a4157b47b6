import type { Context, MiddlewareHandler, Next } from 'hono';
import type { RequestObserver } from './observe.js';
import { withAuditId } from './audit-id.js';
import { observeRequests } from './observe.js';
import { retryAfterWhen } from './retry-after.js';

/**
 * kube's outermost filters, in its order, as one hono layer: WithAuditInit (the request's audit ID and its
 * `Audit-Id` header), the request observation (WithLogging and the route metrics: it sees every answer), and
 * WithRetryAfter (429 while shutting down). One layer rather than three: each hono layer costs its own promises on
 * every request. Each filter answers through `c.res`, so the one outside it sees the answer.
 */
export function requestEntry(observers: readonly RequestObserver[], refusing: () => boolean): MiddlewareHandler {
  const auditId = withAuditId();
  const observe = observeRequests(observers);
  const retryAfter = retryAfterWhen(refusing);
  const inner = (c: Context, next: Next) => observe(c, () => retryAfter(c, next) as Promise<void>) as Promise<void>;
  return (c, next) => auditId(c, () => inner(c, next));
}
