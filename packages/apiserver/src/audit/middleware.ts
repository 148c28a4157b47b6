import type { MiddlewareHandler } from 'hono';
import type { UserInfo } from '../admission/types.js';
import type { MetricSet } from '../metrics/definitions.js';
import { requestAuditId } from '../endpoints/audit-id.js';
import { onBodyEnd } from '../endpoints/response-end.js';
import { requestFacts } from '../limits/long-running.js';
import { withAuditRecord, type AuditRecord } from './context.js';
import { auditedObject, microTime, nowMicros, objectRefOf, sourceIPsOf, type AuditEvent } from './event.js';
import { evaluatePolicy, METADATA_POLICY, type AuditDecision, type AuditPolicy, type AuditStage } from './policy.js';

/** kube's audit counters: events written, events the sink failed to take, requests by policy level. */
export type AuditMetrics = Pick<MetricSet, 'auditEvents' | 'auditErrors' | 'auditLevels'>;

/** Where audit events go: one JSON line per call, newline included (a file stream or process.stdout fits). */
export interface AuditSink {
  write(line: string): void;
}

const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

const record = (u: UserInfo) => ({ username: u.username, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra ? { extra: u.extra } : {}) });

/**
 * `--audit-log-path` with `--audit-policy-file` (kube's WithAudit filter): audit.k8s.io/v1 Events as JSON lines,
 * at the level the policy's first matching rule gives the request (no match: None, nothing written), one per stage
 * the policy does not omit: RequestReceived once authentication knows the user, ResponseStarted when a watch's
 * response begins, ResponseComplete with the code the client got (whatever answered: limits, authentication,
 * authorization or the handler), Panic when the handler threw. A request that never got past authentication is
 * written once, at ResponseStarted, as kube's failed-authentication audit does. At the Request level the event
 * carries the decoded request body, at RequestResponse the response object too (both from the audit record the
 * handlers fill, context.ts); a Status answer fills responseStatus at every level.
 *
 * Authentication and impersonation report the users (auditAuthenticated, auditImpersonated): the policy sees the
 * authenticated requester, the event records it as `user` and the impersonated one as `impersonatedUser`; a
 * request without a known requester is recorded as system:anonymous. Without a policy every request is logged at Metadata. The
 * audit ID is the request's (withAuditId), the one its `Audit-Id` response header carries. A sink that throws never fails the request.
 */
export function auditLog(sink: AuditSink | undefined, policy: AuditPolicy = METADATA_POLICY, metrics?: AuditMetrics): MiddlewareHandler {
  if (!sink) return (_c, next) => next();
  return async (c, next) => {
    const received = nowMicros();
    const request = c.req.raw;
    const { url, info, longRunning } = requestFacts(c);
    const auditID = requestAuditId(c);
    const verb = info?.verb ?? request.method.toLowerCase();
    const env = c.env as { remoteAddress?: string; incoming?: { socket?: { remoteAddress?: string } } } | undefined;

    const event = (decision: AuditDecision, stage: AuditStage, code?: number): AuditEvent => {
      const final = stage !== 'RequestReceived';
      const status = audit.responseStatus?.code === code ? audit.responseStatus : { metadata: {} as Record<string, never>, code: code! };
      return {
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: decision.level as AuditEvent['level'],
        auditID,
        stage,
        requestURI: url.pathname + url.search,
        verb,
        user: record(audit.requester ?? ANONYMOUS),
        ...(audit.impersonated ? { impersonatedUser: record(audit.impersonated) } : {}),
        sourceIPs: sourceIPsOf(request.headers, env?.remoteAddress ?? env?.incoming?.socket?.remoteAddress),
        ...(request.headers.get('user-agent') ? { userAgent: request.headers.get('user-agent')! } : {}),
        ...(info ? { objectRef: objectRefOf(info, audit.requestObjectMeta) } : {}),
        ...(final ? { responseStatus: status } : {}),
        ...(final && audit.requestObject !== undefined ? { requestObject: auditedObject(audit.requestObject, decision.omitManagedFields) } : {}),
        ...(final && stage !== 'ResponseStarted' && audit.responseObject !== undefined ? { responseObject: auditedObject(audit.responseObject, decision.omitManagedFields) } : {}),
        requestReceivedTimestamp: microTime(received),
        stageTimestamp: microTime(stage === 'RequestReceived' ? received : nowMicros()),
        ...(Object.keys(audit.annotations).length ? { annotations: { ...audit.annotations } } : {}),
      };
    };
    const emit = (stage: AuditStage, code?: number) => {
      const decision = audit.decision!;
      if (decision.level === 'None' || decision.omitStages.includes(stage)) return;
      try {
        sink.write(JSON.stringify(event(decision, stage, code)) + '\n');
        metrics?.auditEvents.add();
      } catch {
        // the audit sink failing is no reason to fail the request
        metrics?.auditErrors.add('log');
      }
    };
    const decide = () => {
      audit.decision = evaluatePolicy(policy, audit.requester ?? ANONYMOUS, verb, url.pathname, info);
      metrics?.auditLevels.add(audit.decision.level);
    };
    const audit: AuditRecord = {
      annotations: {},
      authenticated() {
        if (audit.decision) return;
        decide();
        emit('RequestReceived');
      },
    };

    try {
      await withAuditRecord(audit, next);
    } catch (err) {
      if (!audit.decision) decide();
      emit('Panic', 500);
      throw err;
    }
    const res = c.res;
    if (!audit.decision) {
      // Never authenticated (401, or refused before): one event, as kube's failed-authentication audit writes it.
      decide();
      emit('ResponseStarted', res.status);
      return;
    }
    if (res.body && longRunning) {
      emit('ResponseStarted', res.status);
      c.res = new Response(onBodyEnd(res.body, () => emit('ResponseComplete', res.status)), res);
      return;
    }
    emit('ResponseComplete', res.status);
  };
}
