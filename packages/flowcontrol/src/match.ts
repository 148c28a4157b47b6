import type { FlowSchema, PolicyRulesWithSubjects, Subject } from '@kapi/api-flowcontrol';
import type { AuthorizationAttributes } from '@kapi/apiserver';

/**
 * Whether a request matches a FlowSchema, as kube's APF classifier decides (k8s.io/apiserver
 * pkg/util/flowcontrol/rule.go): some rule matches both a subject (the user, one of its groups, or its service
 * account) and the request: a resource rule for resource requests (verb, API group, resource with subresource,
 * namespace or cluster scope), a non-resource rule for the rest (verb, path or path prefix `/x/*`).
 */
export function matchesFlowSchema(request: AuthorizationAttributes, schema: FlowSchema): boolean {
  return (schema.spec?.rules ?? []).some((rule) => matchesRule(request, rule));
}

function matchesRule(request: AuthorizationAttributes, rule: PolicyRulesWithSubjects): boolean {
  if (!(rule.subjects ?? []).some((subject) => matchesSubject(request.user, subject))) return false;
  if (request.resourceRequest) {
    const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
    return (rule.resourceRules ?? []).some(
      (r) =>
        contains(r.verbs, request.verb, '*') &&
        contains(r.resources, resource, '*') &&
        contains(r.apiGroups, request.apiGroup, '*') &&
        (request.namespace === '' ? r.clusterScope === true : contains(r.namespaces ?? [], request.namespace, '*')),
    );
  }
  return (rule.nonResourceRules ?? []).some((r) => contains(r.verbs, request.verb, '*') && matchesPath(r.nonResourceURLs, request.path));
}

function matchesSubject(user: AuthorizationAttributes['user'], subject: Subject): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.user !== undefined && (subject.user.name === '*' || subject.user.name === user.username);
    case 'Group':
      return subject.group !== undefined && (subject.group.name === '*' || user.groups.includes(subject.group.name));
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) return false;
      const prefix = `system:serviceaccount:${sa.namespace}:`;
      return sa.name === '*' ? user.username.startsWith(prefix) : user.username === prefix + sa.name;
    }
    default:
      return false;
  }
}

/** kube's containsString: the wildcard counts only as the list's one member. */
function contains(list: readonly string[], value: string, wildcard: string): boolean {
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(value);
}

/** `*`, the exact path, or a prefix rule `/apis/*` (which matches `/apis` and everything below it). */
function matchesPath(rules: readonly string[], path: string): boolean {
  for (const rule of rules) {
    if (rule === '*' || rule === path) return true;
    let prefix = rule.endsWith('*') ? rule.slice(0, -1) : rule;
    if (!prefix.endsWith('/')) prefix += '/';
    if (path.startsWith(prefix)) return true;
  }
  return false;
}
