import type { FlowSchema, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from '@kapi/api-flowcontrol';
import type { AuthorizationAttributes } from '@kapi/apiserver';

/** A FlowSchema's rules compiled into a test of a request (run on every request, so no closures or scans). */
export type FlowSchemaMatcher = (request: AuthorizationAttributes) => boolean;

/**
 * Whether a request matches a FlowSchema, as kube's APF classifier decides (k8s.io/apiserver
 * pkg/util/flowcontrol/rule.go): some rule matches both a subject (the user, one of its groups, or its service
 * account) and the request: a resource rule for resource requests (verb, API group, resource with subresource,
 * namespace or cluster scope), a non-resource rule for the rest (verb, path or path prefix `/x/*`).
 */
export function matchesFlowSchema(request: AuthorizationAttributes, schema: FlowSchema): boolean {
  return compileFlowSchema(schema)(request);
}

/** {@link matchesFlowSchema} for one schema, with its lists made into sets once. */
export function compileFlowSchema(schema: FlowSchema): FlowSchemaMatcher {
  const rules = (schema.spec?.rules ?? []).map(compileRule);
  return (request) => {
    for (let i = 0; i < rules.length; i++) if (rules[i](request)) return true;
    return false;
  };
}

/** kube's containsString: the wildcard counts only as the list's one member. `undefined`: everything. */
function members(list: readonly string[] | undefined, wildcard: string): Set<string> | undefined {
  if (list && list.length === 1 && list[0] === wildcard) return undefined;
  return new Set(list ?? []);
}

function compileRule(rule: PolicyRulesWithSubjects): FlowSchemaMatcher {
  const subjects = compileSubjects(rule.subjects ?? []);
  const resourceRules = (rule.resourceRules ?? []).map(compileResourceRule);
  const nonResourceRules = (rule.nonResourceRules ?? []).map(compileNonResourceRule);
  return (request) => {
    if (!subjects(request.user)) return false;
    const candidates = request.resourceRequest ? resourceRules : nonResourceRules;
    for (let i = 0; i < candidates.length; i++) if (candidates[i](request)) return true;
    return false;
  };
}

function compileSubjects(subjects: readonly Subject[]): (user: AuthorizationAttributes['user']) => boolean {
  const users = new Set<string>();
  const groups = new Set<string>();
  const accounts = new Set<string>();
  const accountPrefixes: string[] = [];
  let anyone = false;
  for (const subject of subjects) {
    if (subject.kind === 'User' && subject.user) {
      if (subject.user.name === '*') anyone = true;
      users.add(subject.user.name);
    } else if (subject.kind === 'Group' && subject.group) {
      if (subject.group.name === '*') anyone = true;
      groups.add(subject.group.name);
    } else if (subject.kind === 'ServiceAccount' && subject.serviceAccount) {
      const prefix = `system:serviceaccount:${subject.serviceAccount.namespace}:`;
      if (subject.serviceAccount.name === '*') accountPrefixes.push(prefix);
      else accounts.add(prefix + subject.serviceAccount.name);
    }
  }
  return (user) => {
    if (anyone || users.has(user.username) || accounts.has(user.username)) return true;
    for (let i = 0; i < user.groups.length; i++) if (groups.has(user.groups[i])) return true;
    for (let i = 0; i < accountPrefixes.length; i++) if (user.username.startsWith(accountPrefixes[i])) return true;
    return false;
  };
}

function compileResourceRule(rule: ResourcePolicyRule): FlowSchemaMatcher {
  const verbs = members(rule.verbs, '*');
  const resources = members(rule.resources, '*');
  const apiGroups = members(rule.apiGroups, '*');
  const namespaces = members(rule.namespaces ?? [], '*');
  const clusterScope = rule.clusterScope === true;
  return (request) => {
    if (verbs && !verbs.has(request.verb)) return false;
    if (resources && !resources.has(request.subresource ? `${request.resource}/${request.subresource}` : request.resource)) return false;
    if (apiGroups && !apiGroups.has(request.apiGroup)) return false;
    if (request.namespace === '') return clusterScope;
    return !namespaces || namespaces.has(request.namespace);
  };
}

/** `*`, the exact path, or a path prefix: `/apis/*`, and `/healthz` for `/healthz/etcd` (kube's prefix rule). */
function compileNonResourceRule(rule: NonResourcePolicyRule): FlowSchemaMatcher {
  const verbs = members(rule.verbs, '*');
  const urls = rule.nonResourceURLs ?? [];
  const everything = urls.includes('*');
  const exact = new Set(urls);
  const prefixes = urls.map((url) => {
    const prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    return prefix.endsWith('/') ? prefix : `${prefix}/`;
  });
  return (request) => {
    if (verbs && !verbs.has(request.verb)) return false;
    if (everything || exact.has(request.path)) return true;
    for (let i = 0; i < prefixes.length; i++) if (request.path.startsWith(prefixes[i])) return true;
    return false;
  };
}
