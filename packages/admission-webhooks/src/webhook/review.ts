import type { AdmissionAttributes } from '@kapi/apiserver';
import { formatGroupVersionKind, gvkFromObject, type KubeObject, type ResourceInfo } from '@kapi/apimachinery';

/** The version of AdmissionReview a webhook is sent: the first of its admissionReviewVersions Kapi speaks. */
export const reviewVersionOf = (versions: readonly string[]): 'v1' | 'v1beta1' | undefined =>
  versions.find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1');

/** Where a webhook is called: the matched resource and the objects in its version. */
export interface Invocation {
  info: ResourceInfo;
  object?: KubeObject;
  oldObject?: KubeObject;
}

/**
 * kube's AdmissionRequest (webhook/request CreateV1AdmissionReview): kind and resource as the webhook matched
 * them, requestKind and requestResource as the client asked, the user, the objects, dryRun and options.
 */
export function admissionRequest(uid: string, attrs: AdmissionAttributes, invocation: Invocation): Record<string, unknown> {
  const { info } = invocation;
  const req = attrs.resource;
  const user = attrs.user;
  return {
    uid,
    kind: info === req && attrs.kind ? attrs.kind : { group: info.group, version: info.version, kind: info.kind },
    resource: { group: info.group, version: info.version, resource: info.plural },
    ...(attrs.subresource ? { subResource: attrs.subresource } : {}),
    requestKind: attrs.kind ?? { group: req.group, version: req.version, kind: req.kind },
    requestResource: { group: req.group, version: req.version, resource: req.plural },
    ...(attrs.subresource ? { requestSubResource: attrs.subresource } : {}),
    ...(attrs.name ? { name: attrs.name } : {}),
    ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
    operation: attrs.operation,
    userInfo: {
      username: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      ...(user.groups.length ? { groups: user.groups } : {}),
      ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
    },
    object: invocation.object ?? null,
    oldObject: invocation.oldObject ?? null,
    dryRun: attrs.dryRun,
    options: Object.keys(attrs.options).length ? attrs.options : null,
  };
}

/** The AdmissionReview a webhook is POSTed. */
export const admissionReview = (version: 'v1' | 'v1beta1', request: Record<string, unknown>) => ({
  kind: 'AdmissionReview',
  apiVersion: `admission.k8s.io/${version}`,
  request,
});

/** What Kapi takes from a webhook's answer. */
export interface AdmissionResponse {
  allowed: boolean;
  result?: { status?: string; message?: string; reason?: string; code?: number; details?: unknown };
  patch?: string;
  patchType?: string;
  auditAnnotations: Record<string, string>;
  warnings: string[];
}

/**
 * kube's VerifyAdmissionResponse: the answer must be an AdmissionReview of the version sent (v1: with the
 * request's uid), a mutating webhook's patch comes with its patchType, and a validating one sends neither.
 * Throws with kube's text when it is not so.
 */
export function verifyAdmissionResponse(uid: string, version: 'v1' | 'v1beta1', mutating: boolean, review: unknown): AdmissionResponse {
  const r = (review && typeof review === 'object' ? (review as { response?: unknown; apiVersion?: unknown; kind?: unknown }) : {}) as {
    response?: Record<string, unknown> | null;
    apiVersion?: unknown;
    kind?: unknown;
  };
  const response = r.response;
  if (!response || typeof response !== 'object') throw new Error('webhook response was absent');
  const patch = typeof response.patch === 'string' && response.patch.length > 0 ? response.patch : undefined;
  let patchType = typeof response.patchType === 'string' ? response.patchType : undefined;
  if (version === 'v1') {
    if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(response.uid ?? '')}"`);
    if (r.apiVersion !== 'admission.k8s.io/v1' || r.kind !== 'AdmissionReview') {
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${formatGroupVersionKind(gvkFromObject(r))}`);
    }
    if (mutating) {
      if (patch && response.patchType == null) throw new Error('webhook returned response.patch but not response.patchType');
      if (!patch && response.patchType != null) throw new Error('webhook returned response.patchType but not response.patch');
      if (response.patchType != null && !patchType) throw new Error(`webhook returned invalid response.patchType of ""`);
    } else {
      if (patch) throw new Error('validating webhook may not return response.patch');
      if (response.patchType != null) throw new Error('validating webhook may not return response.patchType');
    }
  } else if (mutating) {
    patchType = patch ? 'JSONPatch' : undefined;
  }
  // What Go's strict decoding into admissionv1.AdmissionResponse refuses, Kapi refuses too.
  expectType(response.allowed, 'boolean', 'response.allowed');
  if (patch !== undefined) checkBase64(patch);
  const status = response.status ?? undefined;
  if (status !== undefined) {
    expectType(status, 'object', 'response.status');
    const st = status as Record<string, unknown>;
    expectType(st.message, 'string', 'response.status.message');
    expectType(st.reason, 'string', 'response.status.reason');
    expectType(st.status, 'string', 'response.status.status');
    expectType(st.code, 'integer', 'response.status.code');
    if (st.details != null) {
      expectType(st.details, 'object', 'response.status.details');
      expectType((st.details as Record<string, unknown>).causes, 'array', 'response.status.details.causes');
    }
  }
  expectType(response.warnings, 'array', 'response.warnings');
  const warnings = (response.warnings as unknown[] | null | undefined) ?? [];
  warnings.forEach((w, i) => expectType(w, 'string', `response.warnings[${i}]`));
  expectType(response.auditAnnotations, 'object', 'response.auditAnnotations');
  const annotations = (response.auditAnnotations as Record<string, unknown> | null | undefined) ?? {};
  for (const [k, v] of Object.entries(annotations)) expectType(v, 'string', `response.auditAnnotations[${JSON.stringify(k)}]`);
  return {
    allowed: response.allowed === true,
    result: status as AdmissionResponse['result'],
    patch: mutating ? patch : undefined,
    patchType: mutating ? patchType : undefined,
    auditAnnotations: annotations as Record<string, string>,
    warnings: warnings as string[],
  };
}

const GO_TYPES = { boolean: 'bool', string: 'string', integer: 'int32', object: 'struct', array: 'slice' } as const;

/** Go's `json: cannot unmarshal <kind> into ... of type <type>` for a field of the wrong type (null is absent). */
function expectType(value: unknown, type: keyof typeof GO_TYPES, field: string): void {
  if (value === undefined || value === null) return;
  const ok =
    type === 'array' ? Array.isArray(value)
    : type === 'object' ? typeof value === 'object' && !Array.isArray(value)
    : type === 'integer' ? Number.isInteger(value)
    : typeof value === type;
  if (ok) return;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value === 'number' ? 'number' : typeof value;
  throw new Error(`json: cannot unmarshal ${kind} into Go struct field ${field} of type ${GO_TYPES[type]}`);
}

/** Go's base64.StdEncoding: `illegal base64 data at input byte N` for anything but canonical padded base64. */
function checkBase64(text: string): void {
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) throw new Error(`illegal base64 data at input byte ${bad.index}`);
  const padding = text.indexOf('=');
  if (text.length % 4 !== 0 || (padding >= 0 && (padding < text.length - 2 || /[^=]/.test(text.slice(padding))))) {
    throw new Error(`illegal base64 data at input byte ${padding >= 0 ? padding : text.length - (text.length % 4)}`);
  }
}
