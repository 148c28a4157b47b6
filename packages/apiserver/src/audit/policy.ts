import { yamlLibrary } from '../yaml-library.js';
import type { UserInfo } from '../admission/types.js';
import type { RequestInfo } from '../endpoints/request-info.js';

export const AUDIT_LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type AuditLevel = (typeof AUDIT_LEVELS)[number];
export const AUDIT_STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type AuditStage = (typeof AUDIT_STAGES)[number];

/** audit.k8s.io/v1 GroupResources: resources of one group, optionally only these names. */
export interface AuditGroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

/** audit.k8s.io/v1 PolicyRule: a level for the requests every given field matches (an empty field matches all). */
export interface AuditPolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: AuditGroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** audit.k8s.io/v1 Policy (`--audit-policy-file`): the first matching rule decides; no match is level None. */
export interface AuditPolicy {
  rules: AuditPolicyRule[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** What the policy decided for one request. */
export interface AuditDecision {
  level: AuditLevel;
  omitStages: AuditStage[];
  omitManagedFields: boolean;
}

/** Every request at the Metadata level: what `createApiServer({ audit })` logs when given no policy. */
export const METADATA_POLICY: AuditPolicy = { rules: [{ level: 'Metadata' }] };

export const atLeast = (level: AuditLevel, than: AuditLevel) => AUDIT_LEVELS.indexOf(level) >= AUDIT_LEVELS.indexOf(than);

/** kube's policy.RuleEvaluator: the level, stages to leave out and managed-fields choice for a request. */
export function evaluatePolicy(policy: AuditPolicy, user: UserInfo, verb: string, path: string, info: RequestInfo | undefined): AuditDecision {
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, user, verb, path, info)) continue;
    return {
      level: rule.level,
      omitStages: [...new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])])],
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
    };
  }
  return { level: 'None', omitStages: [], omitManagedFields: false };
}

function ruleMatches(rule: AuditPolicyRule, user: UserInfo, verb: string, path: string, info: RequestInfo | undefined): boolean {
  if (rule.users?.length && !rule.users.includes(user.username)) return false;
  if (rule.userGroups?.length && !user.groups.some((g) => rule.userGroups!.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return info !== undefined && matchesResource(rule, info);
  if (rule.nonResourceURLs?.length) return info === undefined && rule.nonResourceURLs.some((url) => urlMatches(url, path));
  return true;
}

/** `/healthz` matches itself; `/healthz*` any path that starts with `/healthz`. */
const urlMatches = (spec: string, path: string) => spec === path || (spec.endsWith('*') && path.startsWith(spec.slice(0, -1)));

function matchesResource(rule: AuditPolicyRule, info: RequestInfo): boolean {
  // A namespace list matches namespaced requests in it; "" matches cluster-scoped ones.
  if (rule.namespaces?.length && !rule.namespaces.includes(info.namespace ?? '')) return false;
  if (!rule.resources?.length) return true;
  const resource = info.resource ?? '';
  const subresource = info.subresource ?? '';
  const combined = subresource ? `${resource}/${subresource}` : resource;
  const name = info.name ?? '';
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== (info.group ?? '')) continue;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(name)) continue;
    for (const spec of gr.resources) {
      if (spec === '*' || spec === combined) return true;
      if (subresource && spec.startsWith('*/') && spec.slice(2) === subresource) return true;
      if (spec.endsWith('/*') && spec.slice(0, -2) === resource) return true;
    }
  }
  return false;
}

/**
 * Reads an audit.k8s.io/v1 Policy file (YAML or JSON) and checks it as kube-apiserver does (known levels and
 * stages; a rule for resources or for non-resource URLs, not both; resourceNames only with resources; URLs that
 * start with `/` and put `*` only at the end; at least one rule). Throws an Error naming every problem.
 */
export function loadAuditPolicy(text: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = yamlLibrary().parse(text);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isObject(doc)) throw new Error('failed decoding: the file is not an object');
  if (doc.apiVersion !== 'audit.k8s.io/v1' || doc.kind !== 'Policy') {
    throw new Error(`failed decoding: no kind ${JSON.stringify(doc.kind ?? '')} is registered for version ${JSON.stringify(doc.apiVersion ?? '')}: expected kind Policy in audit.k8s.io/v1`);
  }
  const errors: string[] = [];
  const strings = (value: unknown, path: string): string[] | undefined => {
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    errors.push(`${path}: Invalid value: must be a list of strings`);
    return undefined;
  };
  const stages = (value: unknown, path: string): AuditStage[] | undefined => {
    const list = strings(value, path);
    list?.forEach((s, i) => {
      if (!(AUDIT_STAGES as readonly string[]).includes(s)) errors.push(`${path}[${i}]: Unsupported value: ${JSON.stringify(s)}: supported values: ${AUDIT_STAGES.map((x) => JSON.stringify(x)).join(', ')}`);
    });
    return list as AuditStage[] | undefined;
  };
  const bool = (value: unknown, path: string): boolean | undefined => {
    if (value === undefined || value === null || typeof value === 'boolean') return (value ?? undefined) as boolean | undefined;
    errors.push(`${path}: Invalid value: must be a boolean`);
    return undefined;
  };
  const rulesValue = doc.rules ?? [];
  if (!Array.isArray(rulesValue)) throw new Error('failed decoding: rules: expected an array');
  const rules = rulesValue.map((raw, i): AuditPolicyRule => {
    const path = `rules[${i}]`;
    const r = isObject(raw) ? raw : (errors.push(`${path}: Invalid value: must be an object`), {});
    if (!(AUDIT_LEVELS as readonly string[]).includes(r.level as string)) {
      errors.push(`${path}.level: ${r.level === undefined ? 'Required value' : `Unsupported value: ${JSON.stringify(r.level)}`}: supported values: ${AUDIT_LEVELS.map((x) => JSON.stringify(x)).join(', ')}`);
    }
    const resources = (Array.isArray(r.resources) ? r.resources : r.resources == null ? undefined : (errors.push(`${path}.resources: Invalid value: must be a list`), undefined))?.map((g: unknown, j: number) => {
      const gp = `${path}.resources[${j}]`;
      const gr = isObject(g) ? g : {};
      const group = gr.group == null ? undefined : String(gr.group);
      const names = strings(gr.resources, `${gp}.resources`);
      const resourceNames = strings(gr.resourceNames, `${gp}.resourceNames`);
      if (resourceNames?.length && !names?.length) errors.push(`${gp}.resourceNames: Invalid value: ${JSON.stringify(resourceNames)}: using resourceNames requires at least one resource`);
      for (const [k, res] of (names ?? []).entries()) {
        if (res === '' || (res.includes('*') && res !== '*' && !res.startsWith('*/') && !res.endsWith('/*'))) {
          errors.push(`${gp}.resources[${k}]: Invalid value: ${JSON.stringify(res)}: a resource may be "*", "<resource>/*" or "*/<subresource>"`);
        }
      }
      return { group, resources: names, resourceNames };
    });
    const nonResourceURLs = strings(r.nonResourceURLs, `${path}.nonResourceURLs`);
    const namespaces = strings(r.namespaces, `${path}.namespaces`);
    if (nonResourceURLs?.length && (resources?.length || namespaces?.length)) {
      errors.push(`${path}.nonResourceURLs: Invalid value: ${JSON.stringify(nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
    }
    for (const [k, url] of (nonResourceURLs ?? []).entries()) {
      if (!url.startsWith('/') || url.slice(0, -1).includes('*')) errors.push(`${path}.nonResourceURLs[${k}]: Invalid value: ${JSON.stringify(url)}: non-resource URLs must start with "/" and have "*" only at the end`);
    }
    return {
      level: r.level as AuditLevel,
      users: strings(r.users, `${path}.users`),
      userGroups: strings(r.userGroups, `${path}.userGroups`),
      verbs: strings(r.verbs, `${path}.verbs`),
      resources,
      namespaces,
      nonResourceURLs,
      omitStages: stages(r.omitStages, `${path}.omitStages`),
      omitManagedFields: bool(r.omitManagedFields, `${path}.omitManagedFields`),
    };
  });
  const policy: AuditPolicy = { rules, omitStages: stages(doc.omitStages, 'omitStages'), omitManagedFields: bool(doc.omitManagedFields, 'omitManagedFields') };
  if (errors.length) throw new Error(errors.join(', '));
  if (rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
