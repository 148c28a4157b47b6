import type { UserInfo } from '../admission/types.js';
import type { RequestInfo } from '../endpoints/request-info.js';

/** audit.k8s.io/v1 ObjectReference: the object a resource request is about (empty fields are left out). */
export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

/** One audit.k8s.io/v1 Event at the Metadata level: who did what to which object, and the response code. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: 'Metadata';
  auditID: string;
  stage: 'ResponseComplete';
  requestURI: string;
  verb: string;
  user: UserInfo;
  /** The user an impersonating request ran as (`user` is then the requester). */
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus: { metadata: Record<string, never>; code: number };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

/** The object reference kube's audit records for a resource request. */
export function objectRefOf(info: RequestInfo): AuditObjectRef {
  const ref: AuditObjectRef = {
    resource: info.resource,
    namespace: info.namespace,
    name: info.name,
    apiGroup: info.group,
    apiVersion: info.version,
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
