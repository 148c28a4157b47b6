// Whether a policy's matchConstraints or a binding's matchResources apply to a request (kube's generic policy
// matcher and admission/plugin/policy/matching): selectors, excluded rules, then rules at the request's resource
// or an equivalent one; a selector error counts only when the rules match.
import type { AdmissionAttributes } from '@kapi/apiserver';
import type { ResourceInfo } from '@kapi/apimachinery';
import { matchResource, matchRequestOf, namedRuleMatches, namespaceSelectorMatches, objectSelectorMatches, type NamespaceGetter } from '../match/index.js';
import type { MatchResources } from './types.js';

/** A match: the resource (and so the version) the request matched at. */
export interface PolicyMatch {
  info: ResourceInfo;
  converted: boolean;
}

/** What matching needs from the server. */
export interface MatchDeps {
  getNamespace: NamespaceGetter;
  equivalentResources?(info: ResourceInfo): ResourceInfo[];
}

/**
 * kube's Matcher.Matches: undefined when the criteria do not apply; throws a selector's error when the rules match
 * but a selector could not be decided.
 */
export async function matchesCriteria(criteria: MatchResources, attrs: AdmissionAttributes, deps: MatchDeps): Promise<PolicyMatch | undefined> {
  const own = matchRequestOf(attrs);
  let namespaceError: unknown;
  try {
    if (!(await namespaceSelectorMatches(criteria.namespaceSelector, own, deps.getNamespace))) return undefined;
  } catch (e) {
    namespaceError = e;
  }
  if (!objectSelectorMatches(criteria.objectSelector, own)) return undefined;
  // kube: no matchPolicy is Exact here (the API defaults it to Equivalent).
  const matchPolicy = criteria.matchPolicy ?? 'Exact';
  const host = { equivalentResources: deps.equivalentResources ?? (() => []) };
  const excluded = criteria.excludeResourceRules ?? [];
  if (excluded.length > 0 && matchResource(attrs, matchPolicy, host, (req) => excluded.some((r) => namedRuleMatches(r, req)))) return undefined;
  const rules = criteria.resourceRules ?? [];
  const matched = rules.length === 0 ? { info: attrs.resource, converted: false } : matchResource(attrs, matchPolicy, host, (req) => rules.some((r) => namedRuleMatches(r, req)));
  if (!matched) return undefined;
  if (namespaceError) throw namespaceError;
  return { info: matched.info, converted: matched.converted };
}
