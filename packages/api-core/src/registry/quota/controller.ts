import { isObj, isStatusError, str, type KubeObject } from '@kapi/apimachinery';
import { coalesced, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import { evaluatorFor, quotaScopes, type Evaluator } from './evaluators.js';
import { compareQuantities } from '../quantity.js';
import { add, mask, resourceList, type ResourceList } from './lists.js';

// kube-controller-manager's resource quota controller (pkg/controller/resourcequota): a quota's status.hard follows
// its spec.hard and status.used is counted from what is stored, when the quota is new or changed, when usage is
// released (an object deleted, a pod finished), and every five minutes (--resource-quota-sync-period). Admission
// (admission.ts) charges new usage as it is written.

const RESYNC_MS = 5 * 60_000;
const namespaceOf = (obj: KubeObject) => str(obj.metadata?.namespace);

/** Whether two resource lists name the same resources with the same amounts. */
const same = (a: ResourceList, b: ResourceList) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => Object.hasOwn(b, k) && compareQuantities(a[k], b[k]) === 0);

/**
 * Whether a pod's status reports what its containers run with: its usage then follows its container statuses (kube's
 * monitor counts again on every change of them, InPlacePodVerticalScaling being on in 1.33).
 */
function reportsResources(pod: KubeObject): boolean {
  const status = isObj(pod.status) ? pod.status : {};
  return [status.containerStatuses, status.initContainerStatuses].some((list) => Array.isArray(list) && list.some((cs) => isObj(cs) && isObj(cs.resources)));
}

/** kube's needsSync-style check: a quota whose status does not yet follow its spec is counted at once. */
function needsCount(quota: KubeObject): boolean {
  const hard = resourceList(isObj(quota.spec) ? quota.spec.hard : undefined);
  const status = isObj(quota.status) ? quota.status : {};
  const used = resourceList(status.used);
  return !same(hard, resourceList(status.hard)) || Object.keys(hard).some((k) => !Object.hasOwn(used, k));
}

/** The resource a quota resource name is counted from: pods, services and claims for theirs, `count/<r>.<g>` for any. */
function resourceOf(name: string): { group: string; resource: string } | undefined {
  const count = /^count\/([^.]+)(?:\.(.+))?$/.exec(name);
  if (count) return { resource: count[1], group: count[2] ?? '' };
  for (const resource of ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']) {
    if (evaluatorFor('', resource).matching([name]).length) return { group: '', resource };
  }
  return undefined;
}

/** Runs the quota controller on `host` (the core group's install). */
export function countQuotas(host: PluginHost): void {
  const quotas = host.registry.byKind('', 'v1', 'ResourceQuota');
  if (!quotas) return;
  const dirty = new Set<string>();
  const watched = new Set<string>();

  /** What `quota` uses now, counted from the stored objects of each resource it limits. */
  const count = async (quota: KubeObject, namespace: string): Promise<ResourceList> => {
    const hard = Object.keys(resourceList(isObj(quota.spec) ? quota.spec.hard : undefined));
    let used: ResourceList = Object.fromEntries(hard.map((name) => [name, '0']));
    const byResource = new Map<string, { group: string; resource: string }>();
    for (const name of hard) {
      const r = resourceOf(name);
      if (r) byResource.set(`${r.group}/${r.resource}`, r);
    }
    for (const { group, resource } of byResource.values()) {
      const entry = findEntry(group, resource);
      if (!entry) continue;
      follow(entry);
      const evaluator: Evaluator = evaluatorFor(group, resource);
      const names = evaluator.matching(hard);
      const scopes = quotaScopes(quota);
      for (const obj of (await host.store.list(host.systemContext(entry, { namespace }))).items) {
        if (!scopes.every((scope) => evaluator.inScope(scope, obj))) continue;
        used = add(used, mask(evaluator.usage(obj), names));
      }
    }
    return used;
  };

  /** The served entry of a group's resource, in any of its versions. */
  const findEntry = (group: string, resource: string): ResourceEntry | undefined =>
    host.registry.entries.find((e) => e.info.group === group && e.info.plural === resource && e.info.scope === 'Namespaced');

  const sync = coalesced(async () => {
    const namespaces = [...dirty];
    dirty.clear();
    for (const namespace of namespaces) {
      const ctx = host.systemContext(quotas, { namespace });
      for (const quota of (await host.store.list(ctx)).items) {
        const hard = resourceList(isObj(quota.spec) ? quota.spec.hard : undefined);
        const used = await count(quota, namespace);
        const status = isObj(quota.status) ? quota.status : {};
        if (same(hard, resourceList(status.hard)) && same(used, resourceList(status.used))) continue;
        try {
          await host.store.update(host.systemContext(quotas, { namespace, subresource: 'status' }), str(quota.metadata?.name), (current) => {
            if (!current) throw Object.assign(new Error('gone'), { gone: true });
            return { ...current, status: { hard: resourceList(isObj(current.spec) ? current.spec.hard : undefined), used } };
          });
        } catch (err) {
          // Deleted meanwhile, or changed (its own change counts it again).
          if (!(err as { gone?: boolean }).gone && !(isStatusError(err) && [404, 409].includes(Number(err.status.code)))) throw err;
        }
      }
    }
  }, (err) => host.log(1, `resourcequota controller: ${err.message}`));
  const mark = (namespace: string) => {
    if (!namespace) return;
    dirty.add(namespace);
    void sync();
  };

  /**
   * Follows a counted resource, from the first quota that limits it on (a server without quotas watches nothing):
   * usage is released when one is deleted (or a pod ends, or a service or claim changes).
   */
  const follow = (entry: ResourceEntry) => {
    if (watched.has(entry.keyPrefix)) return;
    watched.add(entry.keyPrefix);
    const releases = (type: string, obj: KubeObject) => {
      if (type === 'DELETED') return true;
      if (type !== 'MODIFIED') return false;
      if (entry.info.plural === 'pods') return !!obj.metadata?.deletionTimestamp || ['Failed', 'Succeeded'].includes(str(isObj(obj.status) ? obj.status.phase : undefined)) || reportsResources(obj);
      return entry.info.group === '' && (entry.info.plural === 'services' || entry.info.plural === 'persistentvolumeclaims');
    };
    host.watchObjects(entry, {
      // After a gap in the watch a release may have been missed: every quota is counted again.
      reset: () => resyncAll(),
      event: (type, obj) => {
        if (releases(type, obj)) mark(namespaceOf(obj));
      },
    });
  };
  const resyncAll = () => {
    void host.store.list(host.systemContext(quotas)).then((list) => list.items.forEach((q) => mark(namespaceOf(q))), () => {});
  };
  host.watchObjects(quotas, {
    reset: (all) => all.forEach((q) => mark(namespaceOf(q))),
    event: (type, quota) => {
      if (type !== 'DELETED' && needsCount(quota)) mark(namespaceOf(quota));
    },
  });
  const timer = setInterval(resyncAll, RESYNC_MS);
  timer.unref();
  host.onStop(() => clearInterval(timer));
}
