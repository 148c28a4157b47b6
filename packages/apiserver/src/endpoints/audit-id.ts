import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { withAnswerHeaders } from './answer-headers.js';

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
    return withAnswerHeaders(c, { 'Audit-Id': id }, next);
  };
}
