import { labelSelectorFromObject, type ParsedLabelSelector } from '@kapi/apimachinery';
import type { ClusterRole, PolicyRule } from './types.js';

// ClusterRole aggregation (kube's clusterrole-aggregation-controller), computed when a role is read instead of
// written back by a controller, so the rules are never stale.

const normalized = (rule: PolicyRule) =>
  JSON.stringify([rule.verbs ?? [], rule.apiGroups ?? [], rule.resources ?? [], rule.resourceNames ?? [], rule.nonResourceURLs ?? []]);

const nameOf = (role: ClusterRole) => String(role.metadata?.name ?? '');

function selectorOf(selector: unknown): ParsedLabelSelector | undefined {
  try {
    return labelSelectorFromObject(selector as Parameters<typeof labelSelectorFromObject>[0]);
  } catch {
    // The controller skips a role whose selector does not parse; validation should have refused it anyway.
    return undefined;
  }
}

/**
 * The rules a ClusterRole grants: its own rules, or, when it has an aggregationRule, the union (first occurrence
 * kept, like the controller) of the effective rules of every other ClusterRole matching any selector, selectors in
 * order and matching roles by name. Aggregated roles may select aggregated roles (admin selects edit, edit selects
 * view); a role met again through a cycle adds nothing more, so the result is every rule reachable from a plain
 * role, whatever the stored (possibly stale) rules of aggregated roles say.
 */
export function effectiveRules(role: ClusterRole, all: readonly ClusterRole[], visiting: Set<string> = new Set()): PolicyRule[] {
  if (!role.aggregationRule) return role.rules ?? [];
  const name = nameOf(role);
  if (visiting.has(name)) return [];
  visiting.add(name);
  try {
    const rules: PolicyRule[] = [];
    const seen = new Set<string>();
    for (const raw of role.aggregationRule.clusterRoleSelectors ?? []) {
      const selector = selectorOf(raw);
      if (!selector) continue;
      const matches = all
        .filter((r) => nameOf(r) !== name && selector.matches(r.metadata?.labels ?? {}))
        .sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
      for (const match of matches) {
        for (const rule of effectiveRules(match, all, visiting)) {
          const key = normalized(rule);
          if (seen.has(key)) continue;
          seen.add(key);
          rules.push(rule);
        }
      }
    }
    return rules;
  } finally {
    visiting.delete(name);
  }
}

/** Every ClusterRole with its effective rules (aggregated roles filled in); others are returned unchanged. */
export function aggregateClusterRoles(all: readonly ClusterRole[]): ClusterRole[] {
  return all.map((role) => (role.aggregationRule ? { ...role, rules: effectiveRules(role, all) } : role));
}

/**
 * Writes aggregated ClusterRoles' rules back like kube's controller (optional: the authorizer computes them itself;
 * this keeps `kubectl get clusterrole admin -o yaml` showing them). Calls `update` only for roles whose stored rules
 * differ, and returns their names.
 */
export async function reconcileAggregatedRoles(
  listClusterRoles: () => Promise<ClusterRole[]>,
  update: (role: ClusterRole) => Promise<void>,
): Promise<string[]> {
  const all = await listClusterRoles();
  const changed: string[] = [];
  for (const role of all) {
    if (!role.aggregationRule) continue;
    const rules = effectiveRules(role, all);
    const stored = role.rules ?? [];
    if (rules.length === stored.length && rules.every((r, i) => normalized(r) === normalized(stored[i]))) continue;
    await update({ ...role, rules });
    changed.push(nameOf(role));
  }
  return changed;
}
