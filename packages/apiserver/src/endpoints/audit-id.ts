import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

/** The client's Audit-ID when it sent a sane one (printable ASCII, at most 128 bytes), otherwise a new UUID. */
function auditIdFrom(headers: Headers): string {
  const given = headers.get('audit-id')?.trim();
  return given && given.length <= 128 && /^[\x21-\x7e]+$/.test(given) ? given : randomUUID();
}

/** The request's audit ID (set by {@link withAuditId}; a new one when that filter did not run). */
export function requestAuditId(c: Context): string {
  const id = (c.get as (key: string) => unknown)('auditID');
  return typeof id === 'string' ? id : auditIdFrom(c.req.raw.headers);
}

/**
 * kube's WithAuditInit, the outermost filter: every request gets an audit ID, the one its audit event, its log lines
 * and its `Audit-Id` response header carry, whether or not an audit log is written.
 */
export function withAuditId(): MiddlewareHandler {
  return (c, next) => {
    const id = auditIdFrom(c.req.raw.headers);
    c.set('auditID' as never, id as never);
    // A transport that writes the response itself adds the header there, which spares rebuilding the Response.
    const transport = c.env as { setResponseHeader?(name: string, value: string): void } | undefined;
    if (transport?.setResponseHeader) {
      transport.setResponseHeader('Audit-Id', id);
      return next();
    }
    return next().then(() => {
      try {
        c.res.headers.set('Audit-Id', id);
      } catch {
        // immutable headers (a fetched response)
      }
    });
  };
}
