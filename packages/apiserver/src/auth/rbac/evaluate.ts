import type { UserInfo } from '../../admission/types.js';
import type { AuthorizationAttributes } from '../types.js';
import type { PolicyRule, Subject } from './types.js';

// Rule matching as k8s.io/kubernetes pkg/apis/rbac/v1/evaluation_helpers.go and the RBAC authorizer's RuleAllows.

const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

// `*`, the exact `resource` or `resource/subresource`, or "*/subresource" for that subresource of any resource.
// Like kube, "resource/*" is not a wildcard: it only matches a subresource literally named `*`.
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combinedResource) return true;
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

/** An empty resourceNames list matches any name; otherwise the request must name one of them (so never a nameless list or create). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*`, the exact path, or a path starting with a rule URL's part before its trailing `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === ALL || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** Whether one rule grants the request (kube's rbac.RuleAllows). */
export function ruleAllows(attributes: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (attributes.resourceRequest) {
    const combined = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
    return (
      verbMatches(rule, attributes.verb) &&
      apiGroupMatches(rule, attributes.apiGroup) &&
      resourceMatches(rule, combined, attributes.subresource) &&
      resourceNameMatches(rule, attributes.name)
    );
  }
  return verbMatches(rule, attributes.verb) && nonResourceURLMatches(rule, attributes.path);
}

export function rulesAllow(attributes: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((rule) => ruleAllows(attributes, rule));
}

/** The username kube gives a service account's token. */
export const serviceAccountUsername = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

/**
 * Whether a binding subject names the user. A ServiceAccount subject without a namespace means one in the binding's
 * namespace (so in a ClusterRoleBinding, `bindingNamespace` '', it matches nobody).
 */
export function appliesTo(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return (user.groups ?? []).includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      if (!namespace) return false;
      return user.username === serviceAccountUsername(namespace, subject.name);
    }
    default:
      return false;
  }
}

/** The index of the first subject that applies to the user, or -1. */
export function firstApplyingSubject(subjects: readonly Subject[] | null | undefined, user: UserInfo, bindingNamespace: string): number {
  return (subjects ?? []).findIndex((s) => appliesTo(s, user, bindingNamespace));
}
