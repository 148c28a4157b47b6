import { isNamespaceResource, type MatchRequest } from './request.js';

/** kube's admissionregistration v1 RuleWithOperations (and NamedRuleWithOperations, with resourceNames). */
export interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

const anyOf = (list: readonly string[] | undefined, value: string) => !!list && (list.includes('*') || list.includes(value));

/** `pods/status` → [`pods`, `status`]; `pods` → [`pods`, ``]. */
const splitResource = (r: string): [string, string] => {
  const slash = r.indexOf('/');
  return slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
};

/**
 * Whether a rule matches a request (k8s.io/apiserver webhook/predicates/rules): operation, group, version,
 * resource with subresource (`*` is every resource without subresources, `*\/*` everything, `pods/*` pods and all
 * their subresources, `*\/status` every status), and scope (a Namespace object counts as cluster-scoped).
 */
export function ruleMatches(rule: Rule, req: MatchRequest): boolean {
  if (!scopeMatches(rule.scope, req)) return false;
  if (!anyOf(rule.operations, req.operation)) return false;
  if (!anyOf(rule.apiGroups, req.resource.group)) return false;
  if (!anyOf(rule.apiVersions, req.resource.version)) return false;
  return (rule.resources ?? []).some((item) => {
    const [res, sub] = splitResource(item);
    return (res === '*' || res === req.resource.resource) && (sub === '*' || sub === req.subresource);
  });
}

function scopeMatches(scope: string | undefined, req: MatchRequest): boolean {
  if (scope === undefined || scope === '*') return true;
  if (scope === 'Namespaced') return !isNamespaceResource(req.resource) && req.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(req.resource) || req.namespace === '';
  return false;
}

/** A NamedRuleWithOperations (a policy's resourceRules): the rule, and the request's name among resourceNames when listed. */
export function namedRuleMatches(rule: Rule, req: MatchRequest): boolean {
  if (!ruleMatches(rule, req)) return false;
  return !rule.resourceNames?.length || rule.resourceNames.includes(req.name);
}
