// The API approval annotation of protected groups, and spec.preserveUnknownFields (validateAPIApproval,
// validatePreserveUnknownFields).
import { parseGoURL, type FieldError } from '@kapi/apimachinery';
import { invalid, required } from './field.js';

/** The annotation a CRD in a *.k8s.io or *.kubernetes.io group must carry. */
export const API_APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

/** apihelpers.IsProtectedCommunityGroup. */
export const isProtectedCommunityGroup = (group: string): boolean =>
  group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');

type ApprovalState = 'Invalid' | 'Missing' | 'Approved' | 'Bypassed';

/** apihelpers.GetAPIApprovalState: the state of the annotation, and kube's reason. */
export function apiApprovalState(annotations: Record<string, string> | undefined): [ApprovalState, string] {
  const annotation = annotations?.[API_APPROVAL_ANNOTATION] ?? '';
  if (annotation.length === 0) {
    return ['Missing', `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`];
  }
  if (annotation.startsWith('unapproved')) return ['Bypassed', `not approved: "${annotation}"`];
  // url.ParseRequestURI: an absolute URL (no fragment splitting) with a scheme and a host
  const url = parseGoURL(annotation.replaceAll('#', '%23'));
  if (!('error' in url) && url.scheme && url.host) return ['Approved', `approved in ${annotation}`];
  return [
    'Invalid',
    `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  ];
}

/** A CRD in a protected group names its approval; an unchanged approval state is never rejected on update. */
export function validateAPIApproval(
  group: string,
  annotations: Record<string, string> | undefined,
  oldAnnotations: Record<string, string> | undefined | null,
): FieldError[] {
  if (!isProtectedCommunityGroup(group)) return [];
  const [state, reason] = apiApprovalState(annotations);
  if (oldAnnotations !== null && apiApprovalState(oldAnnotations)[0] === state) return [];
  const field = `metadata.annotations[${API_APPROVAL_ANNOTATION}]`;
  switch (state) {
    case 'Missing':
      return [required(field, reason)];
    case 'Invalid':
      return [invalid(field, annotations?.[API_APPROVAL_ANNOTATION] ?? '', reason)];
    default:
      return [];
  }
}

/** spec.preserveUnknownFields cannot become true (it may stay true on objects that had it). */
export function validatePreserveUnknownFields(preserve: boolean, oldPreserve: boolean | undefined): FieldError[] {
  if (oldPreserve === true) return [];
  if (!preserve) return [];
  return [invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
}
