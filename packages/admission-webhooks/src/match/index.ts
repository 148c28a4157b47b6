// Which admission requests a webhook or policy applies to: rules, selectors, and matchPolicy.
export { isNamespaceResource, matchRequestOf, type GroupVersionResource, type MatchRequest } from './request.js';
export { namedRuleMatches, ruleMatches, type Rule } from './rules.js';
export { namespaceSelectorMatches, objectSelectorMatches, type LabelSelector, type NamespaceGetter } from './selectors.js';
export { matchResource, type MatchedResource } from './resources.js';
