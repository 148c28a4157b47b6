import type { UserInfo } from '../admission/types.js';
import type { Authorizer, SubjectRules } from './types.js';

/** The rules of a user who may do everything (what kube's AlwaysAllow authorizer reports). */
export const ALL_RULES: SubjectRules = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

const NO_RULES = (): SubjectRules => ({ resourceRules: [], nonResourceRules: [], incomplete: false });

/** `--authorization-mode=AlwaysAllow`: every request is allowed. */
export function alwaysAllow(): Authorizer {
  return {
    name: 'AlwaysAllow',
    authorize: () => ({ decision: 'allow' }),
    rulesFor: () => structuredClone(ALL_RULES),
  };
}

/** `--authorization-mode=AlwaysDeny`: every request is denied (kube answers with no opinion; the union denies). */
export function alwaysDeny(): Authorizer {
  return {
    name: 'AlwaysDeny',
    authorize: () => ({ decision: 'no-opinion', reason: 'Everything is forbidden.' }),
    rulesFor: NO_RULES,
  };
}

/**
 * kube's superuser authorizer, placed before every `--authorization-mode`: members of these groups
 * (`system:masters`) may do everything. Like kube's, it reports no rules to SelfSubjectRulesReview.
 */
export function privilegedGroups(...groups: string[]): Authorizer {
  const privileged = (user: UserInfo) => user.groups.some((g) => groups.includes(g));
  return {
    name: 'PrivilegedGroups',
    authorize: ({ user }) => (privileged(user) ? { decision: 'allow' } : { decision: 'no-opinion' }),
    rulesFor: NO_RULES,
  };
}
