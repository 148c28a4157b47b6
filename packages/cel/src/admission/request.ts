// The `request` and `namespaceObject` variables of admission expressions: kube's declared types
// (plugin/cel/compile.go BuildRequestType, BuildNamespaceType) and their values as kube builds them
// (CreateAdmissionRequest, CreateNamespaceObject), with admission/v1's omitempty fields absent when empty.
import type { CelInput } from '@bufbuild/cel';
import { DYN, named, TIMESTAMP_NAME, type StaticType } from '../types.js';
import { toCelValue } from './values.js';

/** A group/version/kind. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A group/version/resource. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** kube's AdmissionRequest as admission expressions see it (`request`). */
export interface AdmissionRequest {
  /** The kind of the object as matched (the equivalent kind when the policy matched an equivalent resource). */
  kind: GroupVersionKind;
  /** The resource as matched. */
  resource: GroupVersionResource;
  subResource?: string;
  /** The kind of the request as the client made it. */
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  dryRun?: boolean;
  /** The operation's options object (CreateOptions, UpdateOptions, DeleteOptions...). */
  options?: unknown;
}

const STRING = named('string');
const record = (name: string, fields: Record<string, StaticType>): StaticType => ({ k: 'record', name, fields: new Map(Object.entries(fields)) });
const list = (elem: StaticType): StaticType => ({ k: 'list', elem });
const map = (value: StaticType): StaticType => ({ k: 'map', key: STRING, value });

const GVK = record('kubernetes.GroupVersionKind', { group: STRING, version: STRING, kind: STRING });
const GVR = record('kubernetes.GroupVersionResource', { group: STRING, version: STRING, resource: STRING });

/** kube's `kubernetes.AdmissionRequest` type. */
export const REQUEST_TYPE = record('kubernetes.AdmissionRequest', {
  kind: GVK,
  resource: GVR,
  subResource: STRING,
  requestKind: GVK,
  requestResource: GVR,
  requestSubResource: STRING,
  name: STRING,
  namespace: STRING,
  operation: STRING,
  userInfo: record('kubernetes.UserInfo', { username: STRING, uid: STRING, groups: list(STRING), extra: map(list(STRING)) }),
  dryRun: named('bool'),
  options: DYN,
});

/** kube's `kubernetes.Namespace` type (the fields CreateNamespaceObject keeps). */
export const NAMESPACE_TYPE = record('kubernetes.Namespace', {
  metadata: record('kubernetes.NamespaceMetadata', {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    labels: map(STRING),
    annotations: map(STRING),
    UID: STRING,
    creationTimestamp: named(TIMESTAMP_NAME),
    deletionGracePeriodSeconds: named('int'),
    deletionTimestamp: named(TIMESTAMP_NAME),
    generation: named('int'),
    resourceVersion: STRING,
    finalizers: list(STRING),
  }),
  spec: record('kubernetes.NamespaceSpec', { finalizers: list(STRING) }),
  status: record('kubernetes.NamespaceStatus', {
    conditions: list(
      record('kubernetes.NamespaceCondition', { status: STRING, type: STRING, lastTransitionTime: named(TIMESTAMP_NAME), message: STRING, reason: STRING }),
    ),
    phase: STRING,
  }),
});

/** Go's omitempty: empty strings, lists and maps are left out. */
function omitEmpty(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** The value of `request`, as kube's SchemalessTypedToVal of its AdmissionRequest (omitempty fields absent). */
export function requestValue(r: AdmissionRequest): CelInput {
  const u = r.userInfo;
  return toCelValue({
    // kind, resource, operation and userInfo have no omitempty; requestKind/requestResource are always set by kube.
    kind: r.kind,
    resource: r.resource,
    requestKind: r.requestKind ?? r.kind,
    requestResource: r.requestResource ?? r.resource,
    ...omitEmpty({ subResource: r.subResource, requestSubResource: r.requestSubResource ?? r.subResource, name: r.name, namespace: r.namespace }),
    operation: r.operation,
    userInfo: omitEmpty({ username: u.username, uid: u.uid, groups: u.groups, extra: u.extra }),
    dryRun: r.dryRun ?? false,
    ...(r.options !== undefined && r.options !== null ? { options: r.options } : {}),
  });
}

/** The value of `namespaceObject`: the fields of a Namespace kube's CreateNamespaceObject keeps, or null. */
export function namespaceValue(ns: unknown): CelInput {
  if (!ns || typeof ns !== 'object') return null;
  const n = ns as { metadata?: Record<string, unknown>; spec?: unknown; status?: unknown };
  const m = n.metadata ?? {};
  const keep = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'];
  const metadata = Object.fromEntries(keep.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]));
  return toCelValue({ metadata, spec: n.spec ?? {}, status: n.status ?? {} });
}
