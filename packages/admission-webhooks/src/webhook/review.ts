import type { AdmissionAttributes } from '@kapi/apiserver';
import type { KubeObject, ResourceInfo } from '@kapi/apimachinery';

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
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${goGVK(r.apiVersion, r.kind)}`);
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
  const allowed = response.allowed;
  if (allowed !== undefined && typeof allowed !== 'boolean') throw new Error('response.allowed must be a boolean');
  return {
    allowed: allowed === true,
    result: response.status && typeof response.status === 'object' ? (response.status as AdmissionResponse['result']) : undefined,
    patch: mutating ? patch : undefined,
    patchType: mutating ? patchType : undefined,
    auditAnnotations: stringMap(response.auditAnnotations),
    warnings: Array.isArray(response.warnings) ? response.warnings.filter((w): w is string => typeof w === 'string') : [],
  };
}

const stringMap = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) : {};

/** Go's schema.GroupVersionKind.String(): `admission.k8s.io/v1, Kind=AdmissionReview`. */
function goGVK(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const [group, version] = av.includes('/') ? av.split('/', 2) : ['', av];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}
