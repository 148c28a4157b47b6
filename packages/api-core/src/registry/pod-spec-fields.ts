import { isIP } from 'node:net';
import {
  asObjects,
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  GoValue,
  goStringSlice,
  isDNS1123Label,
  isDNS1123Subdomain,
  isLabelValue,
  isObj,
  str,
  validateLabelName,
  validateLabelSelector,
  validateLabels,
  type FieldError,
  type Obj,
} from '@kapi/apimachinery';
import { affinityErrors, strings } from './pod-affinity.js';
import { validateContainerResources } from './pod-resources.js';
import { hostProcessErrors, MAX_INT32, osErrors, podSecurityContextErrors } from './pod-security.js';
import { INVALID_IP } from './service/special-ips.js';

// The pod spec fields kube 1.33's ValidatePodSpec checks after the containers, in its order: host network ports,
// restart and DNS policies, node selector, security context, affinity, DNS config, readiness and scheduling gates,
// topology spread constraints, names (service account, node, hostname, subdomain), the active deadline, tolerations,
// host aliases, priority and runtime class names, the preemption policy and the OS rules.

const MAX_DNS_NAMESERVERS = 3;
const MAX_DNS_SEARCH_PATHS = 32;
const MAX_DNS_SEARCH_CHARS = 2048;
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
// NotSupported lists them in kube's order, not sorted.
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

/**
 * kube's validatePodHostNetworkDeps: with hostNetwork, a container's host port is its container port. A pod must
 * say so (defaulting does it); a template may leave it out (0), as the pods made from it get it by defaulting.
 */
function hostNetworkErrors(spec: Obj, field: string, isPod: boolean): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  asObjects(spec.containers).forEach((c, ci) =>
    asObjects(c.ports).forEach((p, pi) => {
      const hostPort = typeof p.hostPort === 'number' ? p.hostPort : 0;
      if ((isPod || hostPort !== 0) && hostPort !== p.containerPort) {
        errs.push(fieldInvalid(`${field}.containers[${ci}].ports[${pi}].hostPort`, hostPort, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }),
  );
  return errs;
}

/** kube's validatePodDNSConfig. */
function dnsConfigErrors(spec: Obj, field: string): FieldError[] {
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!isObj(config)) return [fieldRequired(field, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (!Array.isArray(config.nameservers) || config.nameservers.length === 0) {
      return [fieldRequired(`${field}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
    }
  }
  if (!isObj(config)) return [];
  const errs: FieldError[] = [];
  const nameservers = Array.isArray(config.nameservers) ? config.nameservers.map(String) : [];
  if (nameservers.length > MAX_DNS_NAMESERVERS) {
    errs.push(fieldInvalid(`${field}.nameservers`, new GoValue(goStringSlice(nameservers)), `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`));
  }
  nameservers.forEach((ns, i) => {
    if (!isIP(ns)) errs.push(fieldInvalid(`${field}.nameservers[${i}]`, ns, INVALID_IP));
  });
  const searches = Array.isArray(config.searches) ? config.searches.map(String) : [];
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    errs.push(fieldInvalid(`${field}.searches`, new GoValue(goStringSlice(searches)), `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`));
  }
  if (searches.join(' ').length > MAX_DNS_SEARCH_CHARS) {
    errs.push(fieldInvalid(`${field}.searches`, new GoValue(goStringSlice(searches)), `must not have more than ${MAX_DNS_SEARCH_CHARS} characters (including spaces) in the search list`));
  }
  searches.forEach((search, i) => {
    const name = search.replace(/\.$/, '');
    for (const msg of isDNS1123Subdomain(name)) errs.push(fieldInvalid(`${field}.searches[${i}]`, name, msg));
  });
  asObjects(config.options).forEach((o, i) => {
    if (!str(o.name)) errs.push(fieldRequired(`${field}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

/** kube's validateReadinessGates and validateSchedulingGates: qualified names, scheduling gates each once. */
function gateErrors(spec: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(spec.readinessGates).forEach((g, i) => {
    const name = str(g.conditionType);
    errs.push(...validateLabelName(name, `${field}.readinessGates[${i}].conditionType`));
  });
  const seen = new Set<string>();
  asObjects(spec.schedulingGates).forEach((g, i) => {
    const name = str(g.name);
    errs.push(...validateLabelName(name, `${field}.schedulingGates[${i}]`));
    if (seen.has(name)) errs.push(fieldDuplicate(`${field}.schedulingGates[${i}]`, name));
    seen.add(name);
  });
  return errs;
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/**
 * kube's validateTopologySpreadConstraints: a positive maxSkew, a topology key, a known action, no two constraints
 * with the same key and action, minDomains only positive and with DoNotSchedule, known node policies, and a valid
 * label selector.
 */
function topologySpreadErrors(constraints: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = asObjects(constraints);
  const pair = (c: Obj) => JSON.stringify([str(c.topologyKey), str(c.whenUnsatisfiable)]);
  // Whether a later constraint repeats the pair (kube compares each with the rest; a set keeps it linear).
  const repeatedLater: boolean[] = [];
  const later = new Set<string>();
  for (let i = list.length - 1; i >= 0; i--) {
    const key = pair(list[i]);
    repeatedLater[i] = later.has(key);
    later.add(key);
  }
  list.forEach((c, i) => {
    const at = `${field}[${i}]`;
    const key = str(c.topologyKey);
    const action = str(c.whenUnsatisfiable);
    if (typeof c.maxSkew !== 'number' || c.maxSkew <= 0) errs.push(fieldInvalid(`${at}.maxSkew`, c.maxSkew ?? 0, 'must be greater than zero'));
    if (!key) errs.push(fieldRequired(`${at}.topologyKey`, 'can not be empty'));
    if (!SCHEDULE_ACTIONS.includes(action)) errs.push(fieldNotSupported(`${at}.whenUnsatisfiable`, action, SCHEDULE_ACTIONS));
    if (repeatedLater[i]) {
      errs.push(fieldDuplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${key}, ${action}}`));
    }
    if (c.minDomains !== undefined && c.minDomains !== null) {
      if (typeof c.minDomains !== 'number' || c.minDomains <= 0) errs.push(fieldInvalid(`${at}.minDomains`, c.minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(fieldInvalid(`${at}.minDomains`, c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const value = c[policy];
      if (value !== undefined && value !== null && !NODE_INCLUSION_POLICIES.includes(str(value))) errs.push(fieldNotSupported(`${at}.${policy}`, value, NODE_INCLUSION_POLICIES));
    }
    errs.push(...spreadMatchLabelKeysErrors(c, `${at}.matchLabelKeys`));
    errs.push(...validateLabelSelector(c.labelSelector, `${at}.labelSelector`));
  });
  return errs;
}

/** kube's validateMatchLabelKeysInTopologySpread: label names, with a selector, and not keys the selector already has. */
function spreadMatchLabelKeysErrors(c: Obj, field: string): FieldError[] {
  const keys = strings(c.matchLabelKeys);
  if (keys.length === 0) return [];
  const errs: FieldError[] = [];
  const selector = c.labelSelector;
  const selectorKeys = new Set<string>();
  if (isObj(selector)) {
    if (isObj(selector.matchLabels)) for (const key of Object.keys(selector.matchLabels)) selectorKeys.add(key);
    for (const expr of asObjects(selector.matchExpressions)) selectorKeys.add(str(expr.key));
  } else {
    errs.push(fieldForbidden(field, 'must not be specified when labelSelector is not set'));
  }
  keys.forEach((key, i) => {
    errs.push(...validateLabelName(key, `${field}[${i}]`));
    if (selectorKeys.has(key)) errs.push(fieldInvalid(`${field}[${i}]`, key, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}

/** kube's ValidateTolerations. */
export function tolerationErrors(tolerations: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(tolerations).forEach((t, i) => {
    const at = `${field}[${i}]`;
    const key = str(t.key);
    const operator = str(t.operator);
    const effect = str(t.effect);
    const value = str(t.value);
    if (key) errs.push(...validateLabelName(key, `${at}.key`));
    if (!key && operator !== 'Exists') {
      errs.push(fieldInvalid(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(fieldInvalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const problems = isLabelValue(value);
      if (problems.length) errs.push(fieldInvalid(`${at}.operator`, value, problems.join(';')));
    } else if (operator === 'Exists') {
      if (value) errs.push(fieldInvalid(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(fieldNotSupported(`${at}.operator`, operator, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(fieldNotSupported(`${at}.effect`, effect, TAINT_EFFECTS));
  });
  return errs;
}

/** kube's validateHostUsers: a pod in its own user namespace shares no other namespace with the host (kube's field names). */
function hostUsersErrors(spec: Obj, field: string): FieldError[] {
  if (spec.hostUsers !== false) return [];
  const errs: FieldError[] = [];
  const because = 'when `pod.Spec.HostUsers` is false';
  if (spec.hostNetwork === true) errs.push(fieldForbidden(`${field}.hostNetwork`, because));
  if (spec.hostPID === true) errs.push(fieldForbidden(`${field}.HostPID`, because));
  if (spec.hostIPC === true) errs.push(fieldForbidden(`${field}.HostIPC`, because));
  return errs;
}

/** kube's ValidateHostAliases: an IP address and DNS subdomain host names. */
function hostAliasErrors(aliases: unknown, field: string): FieldError[] {
  return asObjects(aliases).flatMap((alias, i) => {
    const ip = str(alias.ip);
    const errs = isIP(ip) ? [] : [fieldInvalid(`${field}[${i}].ip`, ip, INVALID_IP)];
    (Array.isArray(alias.hostnames) ? alias.hostnames : []).forEach((h, j) => {
      const name = str(h);
      errs.push(...isDNS1123Subdomain(name).map((msg) => fieldInvalid(`${field}[${i}].hostnames[${j}]`, name, msg)));
    });
    return errs;
  });
}

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** kube's ValidatePreemptionPolicy, for a policy given. */
function preemptionPolicyErrors(policy: unknown, field: string): FieldError[] {
  if (policy === undefined || policy === null) return [];
  if (policy === '') return [fieldRequired(field)];
  return PREEMPTION_POLICIES.includes(str(policy)) ? [] : [fieldNotSupported(field, policy, PREEMPTION_POLICIES)];
}

const nameErrors = (value: unknown, field: string, check: (v: string) => string[]): FieldError[] => {
  const name = str(value);
  return name ? check(name).map((msg) => fieldInvalid(field, name, msg)) : [];
};

/** kube's validateRestartPolicy and validateDNSPolicy, for a policy given (defaulting gives both). */
function policyErrors(spec: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, supported] of [['restartPolicy', RESTART_POLICIES], ['dnsPolicy', DNS_POLICIES]] as const) {
    const value = spec[name];
    if (value !== undefined && value !== null && value !== '' && !supported.includes(str(value))) errs.push(fieldNotSupported(`${field}.${name}`, value, supported));
  }
  return errs;
}

/** The checks of ValidatePodSpec that follow the containers', in its order; `isPod` for a Pod rather than a template. */
export function podSpecFieldErrors(spec: Obj, field: string, isPod: boolean): FieldError[] {
  const errs = [
    ...hostNetworkErrors(spec, field, isPod),
    ...policyErrors(spec, field),
    ...validateLabels(spec.nodeSelector, `${field}.nodeSelector`),
    ...podSecurityContextErrors(spec, `${field}.securityContext`),
    ...affinityErrors(spec.affinity, `${field}.affinity`),
    ...dnsConfigErrors(spec, `${field}.dnsConfig`),
    ...gateErrors(spec, field),
    ...topologySpreadErrors(spec.topologySpreadConstraints, `${field}.topologySpreadConstraints`),
    ...hostProcessErrors(spec, field),
    ...hostUsersErrors(spec, field),
  ];
  errs.push(...nameErrors(spec.serviceAccountName, `${field}.serviceAccountName`, isDNS1123Subdomain));
  errs.push(...nameErrors(spec.nodeName, `${field}.nodeName`, isDNS1123Subdomain));
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(fieldInvalid(`${field}.activeDeadlineSeconds`, deadline, `must be between 1 and ${MAX_INT32}, inclusive`));
  }
  errs.push(...nameErrors(spec.hostname, `${field}.hostname`, isDNS1123Label));
  errs.push(...nameErrors(spec.subdomain, `${field}.subdomain`, isDNS1123Label));
  errs.push(...tolerationErrors(spec.tolerations, `${field}.tolerations`));
  errs.push(...hostAliasErrors(spec.hostAliases, `${field}.hostAliases`));
  errs.push(...nameErrors(spec.priorityClassName, `${field}.priorityClassName`, isDNS1123Subdomain));
  errs.push(...nameErrors(spec.runtimeClassName, `${field}.runtimeClassName`, isDNS1123Subdomain));
  errs.push(...preemptionPolicyErrors(spec.preemptionPolicy, `${field}.preemptionPolicy`));
  // kube's validateOverhead: the container resource rules, for limits.
  if (isObj(spec.overhead)) errs.push(...validateContainerResources({ limits: spec.overhead }, `${field}.overhead`));
  errs.push(...osErrors(spec, field));
  return errs;
}
