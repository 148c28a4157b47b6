import { isObj, str, StatusError, type KubeObject } from '@kapi/apimachinery';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin, type PluginHost } from '@kapi/apiserver';
import type { ResourceQuotaConfiguration } from './configuration.js';
import { evaluatorFor, quotaMatches, quotaScopes, type Evaluator, type ScopeSelector } from './evaluators.js';
import { compareQuantities } from '../quantity.js';
import { add, exceeded, mask, prettyPrint, removeZeros, subtractNonNegative, resourceList, type ResourceList } from './lists.js';

// kube 1.33's ResourceQuota admission plugin (k8s.io/apiserver/pkg/admission/plugin/resourcequota), on by default:
// a write that uses more of a namespace's quotas is refused (403) when a quota has no room for it, and otherwise
// charged to each quota's status.used at once (compare-and-swap, so concurrent writes cannot both take the last
// room); the quota controller (controller.ts) recounts usage from what is stored.

const statusOf = (quota: KubeObject) => (isObj(quota.status) ? quota.status : {});

/**
 * kube's CheckRequest for one quota, against its current status: the usage this request adds to it (undefined when
 * none, or the quota does not concern it), or a 403.
 */
function charge(attrs: AdmissionAttributes, evaluator: Evaluator, quota: KubeObject): ResourceList | StatusError | undefined {
  const forbidden = (message: string) => admissionForbidden(attrs, message);
  const obj = attrs.object!;
  if (!quotaMatches(quota, evaluator, obj)) return undefined;
  const hard = resourceList(statusOf(quota).hard);
  const used = resourceList(statusOf(quota).used);
  const restricted = evaluator.matching(Object.keys(hard));
  const name = str(quota.metadata?.name);
  const constraint = evaluator.constraints?.(restricted, obj);
  if (constraint) return forbidden(`failed quota: ${name}: ${constraint}`);
  if (restricted.some((r) => Object.hasOwn(hard, r) && !Object.hasOwn(used, r))) {
    return forbidden(`status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
  }
  const usage = evaluator.usage(obj);
  const negative = Object.keys(usage).filter((r) => compareQuantities(usage[r], '0') < 0);
  if (negative.length) return forbidden(`quota usage is negative for resource(s): ${negative.sort().join(',')}`);
  let delta = usage;
  // An update is charged what it adds, if the object counted against the quota before.
  if (attrs.operation === 'UPDATE' && attrs.oldObject?.metadata?.resourceVersion && quotaMatches(quota, evaluator, attrs.oldObject)) {
    delta = subtractNonNegative(usage, evaluator.usage(attrs.oldObject));
  }
  const requested = mask(removeZeros(delta), Object.keys(hard));
  if (!Object.keys(requested).length) return undefined;
  const newUsed = add(used, requested);
  const over = exceeded(mask(newUsed, Object.keys(requested)), hard).sort();
  if (over.length) {
    return forbidden(`exceeded quota: ${name}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
  }
  return requested;
}

/** Go's %v of a []ScopedResourceSelectorRequirement: `[{PriorityClass In [a b]}]`. */
const goScopes = (scopes: ScopeSelector[]) => `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`).join(' ')}]`;

/**
 * kube's `limitedResources` checks (CheckRequest): a write that uses more of a limited resource (a usage name
 * containing one of its `matchContains`) needs a quota of the namespace that covers that name, and one of an object
 * in a limited scope (`matchScopes`) a quota with a scope of that name the object falls in. Refused with kube's 403
 * `insufficient quota to consume: <names>`, and kube's 500 `insufficient quota to match these scopes: [...]`.
 */
function uncovered(attrs: AdmissionAttributes, evaluator: Evaluator, quotas: KubeObject[], config: ResourceQuotaConfiguration): StatusError | undefined {
  const obj = attrs.object!;
  const forResource = config.limitedResources.filter((l) => l.apiGroup === attrs.resource.group && l.resource === attrs.resource.plural);
  const usage = evaluator.usage(obj);
  const limited = forResource.length
    ? Object.keys(usage).filter((name) => compareQuantities(usage[name], '0') > 0 && forResource.some((l) => l.matchContains.some((part) => name.includes(part))))
    : [];
  const limitedScopes = config.limitedResources.flatMap((l) => l.matchScopes.filter((scope) => evaluator.inScope(scope, obj)));
  const restricted = new Set<string>();
  const restrictedScopes: ScopeSelector[] = [];
  for (const quota of quotas) {
    restrictedScopes.push(...quotaScopes(quota).filter((scope) => evaluator.inScope(scope, obj)));
    if (quotaMatches(quota, evaluator, obj)) for (const name of evaluator.matching(Object.keys(resourceList(statusOf(quota).hard)))) restricted.add(name);
  }
  // A write that uses nothing more needs no covering quota.
  let delta = usage;
  if (attrs.operation === 'UPDATE' && attrs.oldObject?.metadata?.resourceVersion) delta = subtractNonNegative(usage, evaluator.usage(attrs.oldObject));
  if (!Object.keys(removeZeros(delta)).length) return undefined;
  const missing = [...new Set(limited.filter((name) => !restricted.has(name)))].sort();
  if (missing.length) return admissionForbidden(attrs, `insufficient quota to consume: ${missing.join(',')}`);
  const scopes = limitedScopes.filter((scope) => !restrictedScopes.some((r) => r.scopeName === scope.scopeName));
  // kube returns this one as a plain error, which the server answers as a 500 of unknown reason.
  if (scopes.length) {
    const message = `insufficient quota to match these scopes: ${goScopes(scopes)}`;
    return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
  return undefined;
}

/**
 * The ResourceQuota admission plugin; `host` reads and charges the namespace's quotas. `config` is its admission
 * configuration (`limitedResources`: what may only be used under a covering quota).
 */
export function resourceQuotaAdmission(host: PluginHost, config: ResourceQuotaConfiguration = { limitedResources: [] }): AdmissionPlugin {
  return {
    name: 'ResourceQuota',
    operations: ['CREATE', 'UPDATE'],
    async validate(attrs) {
      if (!attrs.namespace || !attrs.object) return;
      const quotas = host.registry.byKind('', 'v1', 'ResourceQuota');
      if (!quotas) return;
      const evaluator = evaluatorFor(attrs.resource.group, attrs.resource.plural);
      if (!evaluator.handles(attrs.operation, attrs.subresource, attrs.object, attrs.oldObject)) return;
      const ctx = host.systemContext(quotas, { namespace: attrs.namespace });
      const found = (await host.store.list(ctx)).items;
      if (!found.length && !config.limitedResources.length) return;
      const refusal = uncovered(attrs, evaluator, found, config);
      if (refusal) throw refusal;
      // Every quota is judged before any is charged: one that refuses charges none.
      const charges: [string, ResourceList][] = [];
      for (const quota of found) {
        const result = charge(attrs, evaluator, quota);
        if (result instanceof Error) throw result;
        if (result) charges.push([str(quota.metadata?.name), result]);
      }
      if (attrs.dryRun) return;
      const statusCtx = host.systemContext(quotas, { namespace: attrs.namespace, subresource: 'status' });
      for (const [name] of charges) {
        // Charged against the quota as stored at the write: a concurrent charge that took the room makes this one fail.
        try {
          await host.store.update(statusCtx, name, (current) => {
            if (!current) throw Object.assign(new Error('gone'), { gone: true });
            const result = charge(attrs, evaluator, current);
            if (result instanceof Error) throw result;
            if (!result) return current;
            return { ...current, status: { ...statusOf(current), used: add(resourceList(statusOf(current).used), result) } };
          });
        } catch (err) {
          // A quota deleted meanwhile limits nothing.
          if (!(err as { gone?: boolean }).gone) throw err;
        }
      }
    },
  };
}
