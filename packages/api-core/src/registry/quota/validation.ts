import { asObjects, fieldInvalid, fieldRequired, GoValue, goQuote, isObj, str, type FieldError, type KubeObject, type Obj } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { quantityErrors, resourceNameErrors } from '../pod-resources.js';

// kube 1.33's ResourceQuota validation (pkg/apis/core/validation ValidateResourceQuota and ValidateResourceQuotaUpdate):
// quota resource names, quantities that are not negative (whole for counted resources), and scopes that exist, suit
// the resources and do not contradict each other; scopes do not change.

const STANDARD_QUOTA = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
const SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity']);
const EXISTS_ONLY = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'CrossNamespacePodAffinity']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

const isStandardQuota = (name: string) => STANDARD_QUOTA.has(name) || name.startsWith('requests.hugepages-');

/** helper.IsResourceQuotaScopeValidForResource. */
function scopeSuits(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return resource === 'pods';
  if (SCOPES.has(scope)) return resource === 'pods' || POD_COMPUTE.has(resource);
  return true;
}

/** %#v of a []core.ResourceQuotaScope or []string. */
const goSlice = (type: string, values: unknown): string => (Array.isArray(values) ? `[]${type}{${values.map((v) => goQuote(String(v))).join(', ')}}` : `[]${type}(nil)`);

/** %#v of a *core.ScopeSelector, as field.Invalid prints it (dereferenced). */
function goScopeSelector(selector: Obj): string {
  const terms = asObjects(selector.matchExpressions).map(
    (e) => `core.ScopedResourceSelectorRequirement{ScopeName:${goQuote(str(e.scopeName))}, Operator:${goQuote(str(e.operator))}, Values:${goSlice('string', e.values)}}`,
  );
  return `core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{${terms.join(', ')}}}`;
}

/** ValidateResourceQuotaResourceName and ValidateResourceQuantityValue for one entry of a list at `field`. */
function entryErrors(name: string, quantity: unknown, field: string): FieldError[] {
  const at = `${field}[${name}]`;
  const errs = resourceNameErrors(name, at, false);
  if (!name.includes('/') && !errs.length && !isStandardQuota(name)) errs.push(fieldInvalid(at, name, 'must be a standard resource for quota'));
  return [...errs, ...quantityErrors(name, quantity, at)];
}

/** ValidateResourceQuotaSpec. */
export function validateResourceQuotaSpec(spec: Obj): FieldError[] {
  const hard = isObj(spec.hard) ? spec.hard : {};
  const names = Object.keys(hard).sort();
  const errs = names.flatMap((name) => entryErrors(name, hard[name], 'spec.hard'));
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.map(String) : [];
  const conflicts = (set: Set<string>, field: string, value: GoValue) => {
    for (const [a, b] of [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']]) if (set.has(a) && set.has(b)) errs.push(fieldInvalid(field, value, 'conflicting scopes'));
  };
  if (scopes.length) {
    const value = new GoValue(goSlice('core.ResourceQuotaScope', spec.scopes));
    for (const scope of scopes) {
      if (!SCOPES.has(scope)) errs.push(fieldInvalid('spec.scopes', value, 'unsupported scope'));
      for (const name of names) if (isStandardQuota(name) && !scopeSuits(scope, name)) errs.push(fieldInvalid('spec.scopes', value, 'unsupported scope applied to resource'));
    }
    conflicts(new Set(scopes), 'spec.scopes', value);
  }
  if (isObj(spec.scopeSelector)) {
    const at = 'spec.scopeSelector.matchExpressions';
    const selector = new GoValue(goScopeSelector(spec.scopeSelector));
    const seen = new Set<string>();
    for (const e of asObjects(spec.scopeSelector.matchExpressions)) {
      const scope = str(e.scopeName);
      const operator = str(e.operator);
      const values = Array.isArray(e.values) ? e.values : [];
      if (!SCOPES.has(scope)) errs.push(fieldInvalid(`${at}.scopeName`, scope, 'unsupported scope'));
      for (const name of names) if (isStandardQuota(name) && !scopeSuits(scope, name)) errs.push(fieldInvalid(at, selector, 'unsupported scope applied to resource'));
      if (EXISTS_ONLY.has(scope) && operator !== 'Exists') {
        errs.push(fieldInvalid(`${at}.operator`, operator, "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
      }
      if (operator === 'In' || operator === 'NotIn') {
        if (!values.length) errs.push(fieldRequired(`${at}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
      } else if (operator === 'Exists' || operator === 'DoesNotExist') {
        if (values.length) errs.push(fieldInvalid(`${at}.values`, new GoValue(goSlice('string', values)), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
      } else {
        errs.push(fieldInvalid(`${at}.operator`, operator, 'not a valid selector operator'));
      }
      seen.add(scope);
    }
    conflicts(seen, at, new GoValue(goSlice('core.ResourceQuotaScope', spec.scopes)));
  }
  return errs;
}

/** ResourceQuotas validated as kube validates them; an update may not change the scopes. */
export const resourceQuotaStrategy: Strategy = {
  validate: (obj: KubeObject) => validateResourceQuotaSpec(isObj(obj.spec) ? obj.spec : {}),
  validateUpdate: (obj: KubeObject, old: KubeObject, ctx) => {
    if (ctx.subresource) return [];
    const spec = isObj(obj.spec) ? obj.spec : {};
    const errs = validateResourceQuotaSpec(spec);
    const scopes = new Set(Array.isArray(spec.scopes) ? spec.scopes.map(String) : []);
    const before = new Set(isObj(old.spec) && Array.isArray(old.spec.scopes) ? old.spec.scopes.map(String) : []);
    if (scopes.size !== before.size || [...scopes].some((s) => !before.has(s))) errs.push(fieldInvalid('spec.scopes', new GoValue(goSlice('core.ResourceQuotaScope', spec.scopes)), 'field is immutable'));
    return errs;
  },
};
