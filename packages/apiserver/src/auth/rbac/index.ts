// The RBAC authorization mode: rule evaluation, policy resolution, aggregation and kube's bootstrap policy.
export type * from './types.js';
export { RBAC_GROUP } from './types.js';
export {
  apiGroupMatches,
  appliesTo,
  firstApplyingSubject,
  nonResourceURLMatches,
  resourceMatches,
  resourceNameMatches,
  ruleAllows,
  rulesAllow,
  serviceAccountUsername,
  verbMatches,
} from './evaluate.js';
export { aggregateClusterRoles, effectiveRules, reconcileAggregatedRoles } from './aggregation.js';
export { aggregateErrors, visitRulesFor, type RuleVisitor } from './resolver.js';
export { createRbacAuthorizer, toSubjectRules } from './authorizer.js';
export { createStoreRbacSource } from './source.js';
export { createMemoryRbacSource, type RbacPolicy } from './memory-source.js';
export {
  AGGREGATE_TO_ADMIN,
  AGGREGATE_TO_EDIT,
  AGGREGATE_TO_VIEW,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_CLUSTER_ROLES,
  BOOTSTRAP_NAMESPACE_ROLES,
  ensureBootstrapPolicy,
  type BootstrapKind,
  type EnsureBootstrapOptions,
} from './bootstrap.js';
