import { goQuote } from '@kapi/apimachinery';
import type { PolicyRule } from './types.js';

// Whether one set of rules covers another, and how the difference is shown: kube's pkg/registry/rbac/validation
// (Covers, BreakdownRule, CompactRules) and rbacv1helpers.CompactString.

const ALL = '*';
const has = (set: readonly string[] | undefined, value: string) => (set ?? []).includes(value);
const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined) => (values ?? []).every((v) => has(set, v));

/** Every rule as rules of one verb, one group, one resource (one resource name), or one URL and one verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

/** `*`, the same resource, or `*\/sub` for that subresource of any resource. */
function resourceCoversAll(owner: readonly string[] | undefined, servant: readonly string[] | undefined): boolean {
  if (hasAll(owner, servant) || has(owner, ALL)) return true;
  return (servant ?? []).every((resource) => {
    const slash = resource.indexOf('/');
    return slash >= 0 && has(owner, `*${resource.slice(slash)}`);
  });
}

/** `*`, the same URL, or a URL under an owner's `prefix*`. */
function nonResourceURLsCoverAll(owner: readonly string[] | undefined, servant: readonly string[] | undefined): boolean {
  return (servant ?? []).every((url) =>
    (owner ?? []).some((o) => o === ALL || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1)))),
  );
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = nonResourceURLsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const names = sub.resourceNames?.length ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames) : !owner.resourceNames?.length;
  return verbs && groups && resources && names && urls;
}

/**
 * The most single rules one rule may break down into (groups × resources × verbs × names, plus URLs × verbs). kube
 * has no bound; a role written to multiply its lists to billions would stall the server, so a rule beyond it that
 * no held rule covers whole is reported missing as it is written, not broken down: a refusal, never a grant.
 */
export const MAX_BREAKDOWN = 20_000;

const breakdownSize = (rule: PolicyRule) =>
  (rule.apiGroups?.length ?? 0) * (rule.resources?.length ?? 0) * (rule.verbs?.length ?? 0) * Math.max(1, rule.resourceNames?.length ?? 0) +
  (rule.nonResourceURLs?.length ?? 0) * (rule.verbs?.length ?? 0);

/**
 * Whether `owner` covers every rule of `servant`, and the broken-down rules it does not cover (kube's Covers). A
 * rule one held rule covers whole needs no breakdown.
 */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    if (owner.some((o) => ruleCovers(o, rule))) continue;
    if (breakdownSize(rule) > MAX_BREAKDOWN) {
      missing.push(rule);
      continue;
    }
    for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

/** Rules of one group and one resource that differ only by verb, merged (the others as they are). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1 && (rule.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? null]);
    const known = simple.get(key);
    if (known) known.verbs.push(...rule.verbs);
    else {
      const copy = { ...rule, verbs: [...rule.verbs] };
      simple.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}

/** Go's %q of a string slice: `["a" "b"]`. */
const goStrings = (values: readonly string[]) => `[${values.map(goQuote).join(' ')}]`;

/** kube's CompactString of a rule: `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goStrings(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goStrings(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goStrings(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goStrings(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goStrings(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
