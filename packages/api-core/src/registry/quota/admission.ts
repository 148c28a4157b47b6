import { isObj, str, type KubeObject, type StatusError } from '@kapi/apimachinery';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin, type PluginHost } from '@kapi/apiserver';
import { evaluatorFor, quotaMatches, type Evaluator } from './evaluators.js';
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

/** The ResourceQuota admission plugin; `host` reads and charges the namespace's quotas. */
export function resourceQuotaAdmission(host: PluginHost): AdmissionPlugin {
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
