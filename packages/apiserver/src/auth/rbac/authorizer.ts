import type { UserInfo } from '../../admission/types.js';
import type { AuthorizationAttributes, Authorizer, Decision, SubjectRules } from '../types.js';
import { ruleAllows } from './evaluate.js';
import { aggregateErrors, collectRulesFor, visitRulesFor } from './resolver.js';
import type { PolicyRule, RbacSource } from './types.js';

/**
 * The RBAC authorization mode (`--authorization-mode=RBAC`, kube's plugin/pkg/auth/authorizer/rbac). Allows when
 * any rule of a ClusterRoleBinding, or of a RoleBinding in the request's namespace, grants the request; otherwise
 * has no opinion (RBAC never denies), with `RBAC: <errors>` as the reason when some policy could not be resolved.
 * Reads `source` on every call: nothing is cached between calls.
 */
export function createRbacAuthorizer(source: RbacSource): Authorizer {
  return {
    name: 'RBAC',

    async authorize(attributes: AuthorizationAttributes): Promise<Decision> {
      let allowedBy: string | undefined;
      const errors: string[] = [];
      await visitRulesFor(source, attributes.user, attributes.namespace, (from, rule, error) => {
        if (rule && ruleAllows(attributes, rule)) {
          allowedBy = from;
          return false;
        }
        if (error) errors.push(error);
        return true;
      });
      if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
      return errors.length ? { decision: 'no-opinion', reason: `RBAC: ${aggregateErrors(errors)}` } : { decision: 'no-opinion' };
    },

    async rulesFor(user: UserInfo, namespace: string): Promise<SubjectRules> {
      const { rules, errors } = await collectRulesFor(source, user, namespace);
      return toSubjectRules(rules, errors);
    },
  };
}

const nonEmpty = (values: string[] | undefined) => (values && values.length ? [...values] : undefined);

/**
 * Policy rules as SelfSubjectRulesReview reports them: a rule with resources becomes a resource rule, one with
 * nonResourceURLs a non-resource rule; empty lists are omitted (omitempty). RBAC always answers incomplete: false,
 * and reports resolution errors as the evaluation error.
 */
export function toSubjectRules(rules: readonly PolicyRule[], errors: readonly string[] = []): SubjectRules {
  const result: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
  for (const rule of rules) {
    if (rule.resources?.length) {
      const resourceRule: SubjectRules['resourceRules'][number] = { verbs: [...(rule.verbs ?? [])] };
      const apiGroups = nonEmpty(rule.apiGroups);
      const resources = nonEmpty(rule.resources);
      const resourceNames = nonEmpty(rule.resourceNames);
      if (apiGroups) resourceRule.apiGroups = apiGroups;
      if (resources) resourceRule.resources = resources;
      if (resourceNames) resourceRule.resourceNames = resourceNames;
      result.resourceRules.push(resourceRule);
    }
    if (rule.nonResourceURLs?.length) {
      result.nonResourceRules.push({ verbs: [...(rule.verbs ?? [])], nonResourceURLs: [...rule.nonResourceURLs] });
    }
  }
  if (errors.length) result.evaluationError = aggregateErrors(errors);
  return result;
}
