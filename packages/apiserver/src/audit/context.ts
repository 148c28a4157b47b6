import { cloneJson } from '@kapi/apimachinery';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { UserInfo } from '../admission/types.js';
import type { AuditObjectMeta } from './event.js';
import { atLeast, type AuditDecision } from './policy.js';

/** The bounded fields of a Status response that kube copies into every event's responseStatus. */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/**
 * What the request path tells the audit log about one request (kube's audit context on the request's context):
 * the policy's decision once the user is known, and the objects the handlers decoded and answered with.
 */
export interface AuditRecord {
  /** The authenticated requester; undefined until authentication succeeded. */
  requester?: UserInfo;
  /** Whom the requester impersonates, once impersonation was allowed. */
  impersonated?: UserInfo;
  /** Set when authentication finished and the policy was evaluated; undefined before. */
  decision?: AuditDecision;
  /** Called once the requester is known: evaluates the policy and writes RequestReceived. */
  authenticated(): void;
  requestObject?: unknown;
  /** The request object's namespace, name, uid and resourceVersion (kept at every level: they complete objectRef). */
  requestObjectMeta?: AuditObjectMeta;
  responseObject?: unknown;
  responseStatus?: AuditResponseStatus;
  annotations: Record<string, string>;
}

const current = new AsyncLocalStorage<AuditRecord>();

/** Runs `fn` with `record` as the audit record of everything it calls (the audit middleware's part). */
export const withAuditRecord = <T>(record: AuditRecord, fn: () => T): T => current.run(record, fn);

/** Authentication is done: the policy can be evaluated for the requester and RequestReceived written. */
export function auditAuthenticated(requester: UserInfo): void {
  const record = current.getStore();
  if (!record) return;
  record.requester = requester;
  record.authenticated();
}

/** Impersonation was allowed: the event records `user` as impersonatedUser. */
export function auditImpersonated(user: UserInfo): void {
  const record = current.getStore();
  if (record) record.impersonated = user;
}

/**
 * kube's audit.LogRequestObject / LogRequestPatch: the decoded body, kept at the Request level and above. An object
 * (not a patch) also completes the event's objectRef at every level.
 */
export function auditRequestObject(obj: unknown, { patch = false }: { patch?: boolean } = {}): void {
  const record = current.getStore();
  if (!record) return;
  const meta = patch ? undefined : (obj as { metadata?: unknown } | null)?.metadata;
  if (meta && typeof meta === 'object') {
    const text = (key: string) => {
      const value = (meta as Record<string, unknown>)[key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    record.requestObjectMeta = { namespace: text('namespace'), name: text('name'), uid: text('uid'), resourceVersion: text('resourceVersion') };
  }
  // Kept as it was decoded: the request path goes on to change the object.
  if (record?.decision && atLeast(record.decision.level, 'Request')) record.requestObject = cloneJson(obj);
}

/**
 * kube's audit.LogResponseObject: a Status answer fills responseStatus (at every level), and the object itself is
 * kept at the RequestResponse level.
 */
export function auditResponseObject(obj: unknown): void {
  const record = current.getStore();
  if (!record) return;
  const status = obj as { kind?: unknown; status?: string; message?: string; reason?: string; details?: unknown; code?: number };
  if (status && status.kind === 'Status' && typeof status.code === 'number') {
    record.responseStatus = {
      metadata: {},
      ...(status.status ? { status: status.status } : {}),
      ...(status.message ? { message: status.message } : {}),
      ...(status.reason ? { reason: status.reason } : {}),
      ...(status.details ? { details: status.details } : {}),
      code: status.code,
    };
  }
  if (record.decision && atLeast(record.decision.level, 'RequestResponse')) record.responseObject = obj;
}

/** An annotation on the request's audit event (`authorization.k8s.io/decision`, ...). */
export function auditAnnotate(key: string, value: string): void {
  const record = current.getStore();
  if (record) record.annotations[key] = value;
}
