import type { UserInfo } from '../admission/types.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import type { AuditResponseStatus } from './context.js';
import type { AuditLevel, AuditStage } from './policy.js';

/** audit.k8s.io/v1 ObjectReference: the object a resource request is about (empty fields are left out). */
export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** What the request's decoded object says of itself, which completes the object reference (kube's LogRequestObject). */
export interface AuditObjectMeta {
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

/**
 * One audit.k8s.io/v1 Event: who did what to which object, at which stage of the request, with the response's
 * status; at the Request level the request's object, at RequestResponse the response's too.
 */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Exclude<AuditLevel, 'None'>;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: UserInfo;
  /** The user an impersonating request ran as (`user` is then the requester). */
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  /** Absent at RequestReceived. */
  responseStatus?: AuditResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** An object as the event carries it: without metadata.managedFields (its list's items' too) when asked to omit them. */
export function auditedObject(obj: unknown, omitManagedFields: boolean): unknown {
  if (!omitManagedFields || typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const withoutFields = (o: Record<string, unknown>) => {
    const meta = o.metadata as Record<string, unknown> | undefined;
    if (!meta || typeof meta !== 'object' || !Object.hasOwn(meta, 'managedFields')) return o;
    const { managedFields: _omitted, ...rest } = meta;
    return { ...o, metadata: rest };
  };
  const top = withoutFields(obj as Record<string, unknown>);
  return Array.isArray(top.items) ? { ...top, items: top.items.map((i) => (typeof i === 'object' && i !== null ? withoutFields(i as Record<string, unknown>) : i)) } : top;
}

/**
 * The object reference kube's audit records for a resource request: from the path, completed from the request's
 * object (a create's name, a body's uid and resourceVersion) where the path says nothing, as kube's
 * LogRequestObject does at every level.
 */
export function objectRefOf(info: RequestInfo, meta: AuditObjectMeta = {}): AuditObjectRef {
  const ref: AuditObjectRef = {
    resource: info.resource,
    namespace: info.namespace || meta.namespace,
    name: info.name || meta.name,
    uid: meta.uid,
    apiGroup: info.group,
    apiVersion: info.version,
    resourceVersion: meta.resourceVersion,
    subresource: info.subresource,
  };
  for (const key of Object.keys(ref) as (keyof AuditObjectRef)[]) if (!ref[key]) delete ref[key];
  return ref;
}

/**
 * kube's utilnet.SourceIPs: the X-Forwarded-For chain, then X-Real-Ip, then the peer address, without
 * duplicates. Headers are the client's word; the peer address is the transport's.
 */
export function sourceIPsOf(headers: Headers, remoteAddress: string | undefined): string[] {
  const ips: string[] = [];
  const add = (ip: string | null | undefined) => {
    const value = ip?.trim();
    if (value && !ips.includes(value)) ips.push(value);
  };
  for (const ip of (headers.get('x-forwarded-for') ?? '').split(',')) add(ip);
  add(headers.get('x-real-ip'));
  add(remoteAddress?.replace(/^::ffff:/, ''));
  return ips;
}

/** Now with microseconds, as the wall clock and the monotonic clock together give them. */
export function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** kube's metav1.MicroTime in JSON: RFC 3339 in UTC with exactly six fractional digits. */
export function microTime(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // 2006-01-02T15:04:05.000Z
  return `${iso.slice(0, 19)}.${String(micros - Math.floor(micros / 1e6) * 1e6).padStart(6, '0')}Z`;
}
