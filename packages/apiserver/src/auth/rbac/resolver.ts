import { goQuote } from '@kapi/apimachinery';
import type { UserInfo } from '../../admission/types.js';
import { effectiveRules } from './aggregation.js';
import { firstApplyingSubject } from './evaluate.js';
import type { ClusterRole, PolicyRule, RbacSource, RoleBinding, RoleRef, Subject } from './types.js';

// Which rules apply to a user in a namespace: kube's DefaultRuleResolver (pkg/registry/rbac/validation/rule.go).

/**
 * Called once per applicable rule, with a description of the binding that granted it, or once per resolution error
 * (a missing role, a failed read). Return false to stop visiting.
 */
export type RuleVisitor = (source: string | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

const notFound = (resource: 'role' | 'clusterrole', name: string) => `${resource}.rbac.authorization.k8s.io ${goQuote(name)} not found`;

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  }
  return `${subject.kind} ${goQuote(subject.name)}`;
}

function describeBinding(binding: RoleBinding, subject: Subject, namespace: string): string {
  const name = String(binding.metadata?.name ?? '');
  const { kind, name: roleName } = binding.roleRef;
  return namespace
    ? `RoleBinding ${goQuote(`${name}/${namespace}`)} of ${kind} ${goQuote(roleName)} to ${describeSubject(subject, namespace)}`
    : `ClusterRoleBinding ${goQuote(name)} of ${kind} ${goQuote(roleName)} to ${describeSubject(subject, '')}`;
}

/**
 * Resolves role references against one source, memoizing reads for the duration of one resolution only (policy
 * may change between requests, so nothing outlives it).
 */
function createRoleResolver(source: RbacSource) {
  let allClusterRoles: Promise<ClusterRole[]> | undefined;
  const clusterRoles = new Map<string, Promise<PolicyRule[]>>();

  const clusterRoleRules = (name: string) => {
    let rules = clusterRoles.get(name);
    if (!rules) {
      rules = source.getClusterRole(name).then(async (role) => {
        if (!role) throw new Error(notFound('clusterrole', name));
        if (!role.aggregationRule) return role.rules ?? [];
        return effectiveRules(role, await (allClusterRoles ??= source.listClusterRoles()));
      });
      clusterRoles.set(name, rules);
    }
    return rules;
  };

  /** kube's GetRoleReferenceRules: `bindingNamespace` is '' for a ClusterRoleBinding. */
  return async function roleReferenceRules(roleRef: RoleRef, bindingNamespace: string): Promise<PolicyRule[]> {
    switch (roleRef.kind) {
      case 'Role': {
        const role = bindingNamespace ? await source.getRole(bindingNamespace, roleRef.name) : undefined;
        if (!role) throw new Error(notFound('role', roleRef.name));
        return role.rules ?? [];
      }
      case 'ClusterRole':
        return clusterRoleRules(roleRef.name);
      default:
        throw new Error(`unsupported role reference kind: ${goQuote(String(roleRef.kind))}`);
    }
  };
}

/** The rules a role reference grants (kube's GetRoleReferenceRules); rejects when the role does not exist. */
export function roleReferenceRules(source: RbacSource, roleRef: RoleRef, bindingNamespace: string): Promise<PolicyRule[]> {
  return createRoleResolver(source)(roleRef, bindingNamespace);
}

/** Visits ClusterRoleBindings' rules, then (for a namespace) the namespace's RoleBindings' rules, in listing order. */
export async function visitRulesFor(source: RbacSource, user: UserInfo, namespace: string, visitor: RuleVisitor): Promise<void> {
  const roleReferenceRules = createRoleResolver(source);

  const visitBindings = async (list: () => Promise<RoleBinding[]>, bindingNamespace: string): Promise<boolean> => {
    let bindings: RoleBinding[];
    try {
      bindings = await list();
    } catch (err) {
      return visitor(undefined, undefined, errorText(err));
    }
    for (const binding of bindings) {
      const index = firstApplyingSubject(binding.subjects, user, bindingNamespace);
      if (index < 0) continue;
      let rules: PolicyRule[];
      try {
        rules = await roleReferenceRules(binding.roleRef, bindingNamespace);
      } catch (err) {
        if (!visitor(undefined, undefined, errorText(err))) return false;
        continue;
      }
      const description = describeBinding(binding, binding.subjects![index], bindingNamespace);
      for (const rule of rules) {
        if (!visitor(description, rule, undefined)) return false;
      }
    }
    return true;
  };

  if (!(await visitBindings(() => source.listClusterRoleBindings(), ''))) return;
  if (namespace) await visitBindings(() => source.listRoleBindings(namespace), namespace);
}

/** Every rule `user` holds in `namespace`, and the errors met resolving them (kube's RulesFor). */
export async function collectRulesFor(source: RbacSource, user: UserInfo, namespace: string): Promise<{ rules: PolicyRule[]; errors: string[] }> {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  await visitRulesFor(source, user, namespace, (_from, rule, error) => {
    if (rule) rules.push(rule);
    if (error) errors.push(error);
    return true;
  });
  return { rules, errors };
}

/** kube's utilerrors aggregate message: one error as is, several (deduplicated) as `[a, b]`. */
export function aggregateErrors(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  if (errors.length === 1 || unique.length === 1) return unique[0] ?? '';
  return unique.length ? `[${unique.join(', ')}]` : '';
}
