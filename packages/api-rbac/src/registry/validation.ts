// kube 1.33's pkg/apis/rbac/validation/validation.go, over the decoded (and defaulted) JSON objects: the rules of
// Roles and ClusterRoles (with a ClusterRole's aggregationRule), the roleRef and subjects of (Cluster)RoleBindings.
// The metadata checks of kube's Validate* functions are the server's (validateObjectMeta, with the kinds'
// path-segment name rule), run before these.
import {
  GoValue,
  asObjects,
  isObj,
  str,
  type Obj,
  fieldChild,
  fieldIndex,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  goQuote,
  goStringSlice,
  isDNS1123Subdomain,
  labelSelectorFromObject,
  validateLabelSelector,
  type FieldError,
  type KubeObject,
  type LabelSelector,
  type LabelSelectorOptions,
} from '@kapi/apimachinery';
// rbac's ValidateRBACName is kube's path.IsValidPathSegmentName.
import { isValidPathSegmentName } from '@kapi/apiserver';

const GROUP = 'rbac.authorization.k8s.io';

/** A []string field as Go decodes it: absent is empty, a non-string item "". */
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

/**
 * ValidatePolicyRule: verbs always; then either non-resource URLs (never in a namespaced Role, never beside
 * resources) or API groups and resources.
 */
export function validatePolicyRule(rule: Obj, namespaced: boolean, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (strings(rule.verbs).length === 0) errs.push(fieldRequired(fieldChild(field, 'verbs'), 'verbs must contain at least one value'));
  const urls = strings(rule.nonResourceURLs);
  if (urls.length > 0) {
    // Go prints the []string with %#v.
    const shown = new GoValue(goStringSlice(urls));
    if (namespaced) errs.push(fieldInvalid(fieldChild(field, 'nonResourceURLs'), shown, 'namespaced rules cannot apply to non-resource URLs'));
    if (strings(rule.apiGroups).length > 0 || strings(rule.resources).length > 0 || strings(rule.resourceNames).length > 0) {
      errs.push(fieldInvalid(fieldChild(field, 'nonResourceURLs'), shown, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (strings(rule.apiGroups).length === 0) errs.push(fieldRequired(fieldChild(field, 'apiGroups'), 'resource rules must supply at least one api group'));
  if (strings(rule.resources).length === 0) errs.push(fieldRequired(fieldChild(field, 'resources'), 'resource rules must supply at least one resource'));
  return errs;
}

const rulesErrors = (obj: KubeObject, namespaced: boolean): FieldError[] =>
  asObjects(obj.rules).flatMap((rule, i) => validatePolicyRule(rule, namespaced, fieldIndex('rules', i)));

/** ValidateRole: each rule, as a namespaced one. */
export function validateRole(role: KubeObject): FieldError[] {
  return rulesErrors(role, true);
}

/** Whether an aggregation selector of the ClusterRole fails ValidateLabelSelector (kube's hasInvalidLabelValueInLabelSelector). */
export function hasInvalidLabelSelector(role: KubeObject): boolean {
  if (!isObj(role.aggregationRule)) return false;
  return asObjects(role.aggregationRule.clusterRoleSelectors).some((selector) => validateLabelSelector(selector, '').length > 0);
}

/** Whether metav1.LabelSelectorAsSelector refuses the selector. */
function unconvertible(selector: Obj): boolean {
  try {
    labelSelectorFromObject(selector as LabelSelector);
    return false;
  } catch {
    return true;
  }
}

/**
 * ValidateClusterRole: each rule, as a cluster-wide one; an aggregationRule (when present at all) needs a selector,
 * and each selector is a valid label selector. One that LabelSelectorAsSelector also refuses gets kube's extra
 * `Invalid value: "null": invalid label selector.` (the failed conversion's nil selector is the value Go prints).
 */
export function validateClusterRole(role: KubeObject, options: LabelSelectorOptions = {}): FieldError[] {
  const errs = rulesErrors(role, false);
  if (isObj(role.aggregationRule)) {
    const field = 'aggregationRule.clusterRoleSelectors';
    const selectors = asObjects(role.aggregationRule.clusterRoleSelectors);
    if (selectors.length === 0) errs.push(fieldRequired(field, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((selector, i) => {
      errs.push(...validateLabelSelector(selector, fieldIndex(field, i), options));
      if (unconvertible(selector)) errs.push(fieldInvalid(fieldIndex(field, i), null, 'invalid label selector.'));
    });
  }
  return errs;
}

/**
 * ValidateRoleBindingSubject: a name; a ServiceAccount's is a DNS subdomain in the core group (and, in a
 * ClusterRoleBinding, names its namespace); Users and Groups are RBAC's; no other kind.
 */
export function validateSubject(subject: Obj, namespaced: boolean, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const [kind, name, apiGroup] = [str(subject.kind), str(subject.name), str(subject.apiGroup)];
  if (!name) errs.push(fieldRequired(fieldChild(field, 'name')));
  switch (kind) {
    case 'ServiceAccount':
      if (name) for (const msg of isDNS1123Subdomain(name)) errs.push(fieldInvalid(fieldChild(field, 'name'), name, msg));
      if (apiGroup) errs.push(fieldNotSupported(fieldChild(field, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && !str(subject.namespace)) errs.push(fieldRequired(fieldChild(field, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== GROUP) errs.push(fieldNotSupported(fieldChild(field, 'apiGroup'), apiGroup, [GROUP]));
      break;
    default:
      errs.push(fieldNotSupported(fieldChild(field, 'kind'), kind, ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

const roleRefOf = (binding: KubeObject) => {
  const ref = isObj(binding.roleRef) ? binding.roleRef : {};
  return { apiGroup: str(ref.apiGroup), kind: str(ref.kind), name: str(ref.name) };
};

/**
 * ValidateRoleBinding (`namespaced`) and ValidateClusterRoleBinding: a roleRef to an RBAC role (a RoleBinding's to a
 * Role or ClusterRole, a ClusterRoleBinding's to a ClusterRole only) by a path-segment name, then each subject.
 */
export function validateBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = roleRefOf(binding);
  if (ref.apiGroup !== GROUP) errs.push(fieldNotSupported('roleRef.apiGroup', ref.apiGroup, [GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(fieldNotSupported('roleRef.kind', ref.kind, kinds));
  if (!ref.name) errs.push(fieldRequired('roleRef.name'));
  else for (const msg of isValidPathSegmentName(ref.name)) errs.push(fieldInvalid('roleRef.name', ref.name, msg));
  asObjects(binding.subjects).forEach((subject, i) => errs.push(...validateSubject(subject, namespaced, fieldIndex('subjects', i))));
  return errs;
}

/**
 * The part of Validate(Cluster)RoleBindingUpdate beyond the binding's own validation: the roleRef never changes
 * (delete and recreate the binding instead). Go prints the new rbac.RoleRef with %#v.
 */
export function roleRefChange(binding: KubeObject, old: KubeObject): FieldError[] {
  const [now, before] = [roleRefOf(binding), roleRefOf(old)];
  if (now.apiGroup === before.apiGroup && now.kind === before.kind && now.name === before.name) return [];
  const shown = `rbac.RoleRef{APIGroup:${goQuote(now.apiGroup)}, Kind:${goQuote(now.kind)}, Name:${goQuote(now.name)}}`;
  return [fieldInvalid('roleRef', new GoValue(shown), 'cannot change roleRef')];
}
