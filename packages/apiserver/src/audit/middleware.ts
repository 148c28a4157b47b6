import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { UserInfo } from '../admission/types.js';
import { contextUser } from '../limits/middleware.js';
import { isLongRunning, requestInfoOf } from '../limits/long-running.js';
import { microTime, nowMicros, objectRefOf, sourceIPsOf, type AuditEvent } from './event.js';

/** Where audit events go: one JSON line per call, newline included (a file stream or process.stdout fits). */
export interface AuditSink {
  write(line: string): void;
}

const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** kube's Audit-ID header: the client's own ID when it sent a sane one, otherwise a new UUID. */
function auditIdOf(headers: Headers): string {
  const given = headers.get('audit-id')?.trim();
  return given && given.length <= 128 && /^[\x21-\x7e]+$/.test(given) ? given : randomUUID();
}

/**
 * `--audit-log-path` at the Metadata level: one audit.k8s.io/v1 Event per request, written at ResponseComplete
 * with the code the client got, whatever answered it (limits, authentication, authorization or the handler).
 *
 * The user is the one authentication stored as the context variable `user` (a UserInfo), read when the response
 * is complete, so it is there wherever the authentication middleware runs; without one it is system:anonymous.
 * The peer address comes from the fetch env: `remoteAddress`, or the node server's `incoming.socket`. Long-running requests
 * (watches) are written when their response stream ends. The response carries the `Audit-Id` header. A sink that
 * throws never fails the request.
 */
export function auditLog(sink: AuditSink | undefined): MiddlewareHandler {
  if (!sink) return (_c, next) => next();
  return async (c, next) => {
    const received = nowMicros();
    const request = c.req.raw;
    const url = new URL(request.url);
    const auditID = auditIdOf(request.headers);
    const info = requestInfoOf(request.method, url);
    const env = c.env as { remoteAddress?: string; incoming?: { socket?: { remoteAddress?: string } } } | undefined;
    const event = (code: number): AuditEvent => {
      const user = contextUser(c) ?? ANONYMOUS;
      // kube records the authenticated requester as `user` and whom it impersonated as `impersonatedUser`.
      const requester = contextUser(c, 'impersonatedBy');
      const record = (u: UserInfo) => ({ username: u.username, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra ? { extra: u.extra } : {}) });
      return {
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Metadata',
        auditID,
        stage: 'ResponseComplete',
        requestURI: url.pathname + url.search,
        verb: info?.verb ?? request.method.toLowerCase(),
        user: record(requester ?? user),
        ...(requester ? { impersonatedUser: record(user) } : {}),
        sourceIPs: sourceIPsOf(request.headers, env?.remoteAddress ?? env?.incoming?.socket?.remoteAddress),
        ...(request.headers.get('user-agent') ? { userAgent: request.headers.get('user-agent')! } : {}),
        ...(info ? { objectRef: objectRefOf(info) } : {}),
        responseStatus: { metadata: {}, code },
        requestReceivedTimestamp: microTime(received),
        stageTimestamp: microTime(nowMicros()),
      };
    };
    const emit = (code: number) => {
      try {
        sink.write(JSON.stringify(event(code)) + '\n');
      } catch {
        // the audit sink failing is no reason to fail the request
      }
    };

    try {
      await next();
    } catch (err) {
      emit(500);
      throw err;
    }
    const res = c.res;
    try {
      res.headers.set('Audit-Id', auditID);
    } catch {
      // immutable headers (a fetched response): the event is written all the same
    }
    if (res.body && isLongRunning(request.method, url)) {
      c.res = new Response(onEnd(res.body, () => emit(res.status)), res);
      return;
    }
    emit(res.status);
  };
}

/** `body`, calling `done` once when it ends, fails or the client cancels it. */
function onEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let called = false;
  const finish = () => {
    if (!called) {
      called = true;
      done();
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          finish();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}
