import { cloneJson, labelSelectorFromObject, newNotFound, newTooManyRequests, StatusError, type KubeObject, type LabelSelector } from '@kapi/apimachinery';
import type { DeleteOptions, PluginHost, SubresourceAction } from '@kapi/apiserver';
import { createdStatus } from './status.js';

type Pdb = KubeObject & {
  spec?: { selector?: LabelSelector };
  status?: { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number };
};

/**
 * `pods/NAME/eviction` (policy/v1 Eviction, kube's pkg/registry/core/pod/storage/eviction.go): deletes the pod
 * unless a PodDisruptionBudget selecting it allows no disruption, in which case it answers 429 as kube does; an
 * allowed eviction uses up one disruption. Budgets are read only when the server serves policy/v1.
 */
export function evictionAction(host: PluginHost): SubresourceAction {
  const { store, registry } = host;
  return async ({ ctx, name, body }) => {
    const eviction = ((await body()) ?? {}) as { deleteOptions?: DeleteOptions };
    const pods = { ...ctx, subresource: '' };
    const pod = await store.get(pods, name);
    const pdbEntry = registry.byKind('policy', 'v1', 'PodDisruptionBudget');
    if (pdbEntry) {
      const pdbCtx = { ...ctx, entry: pdbEntry, subresource: '' };
      const labels = pod.metadata?.labels ?? {};
      for (const pdb of (await store.list(pdbCtx)).items as Pdb[]) {
        const selector = pdb.spec?.selector;
        if (!selector || !labelSelectorFromObject(selector).matches(labels)) continue;
        const pdbName = String(pdb.metadata?.name);
        if ((pdb.status?.disruptionsAllowed ?? 0) <= 0) {
          const err = newTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0);
          err.status.details = {
            causes: [{
              reason: 'DisruptionBudget',
              message: `The disruption budget ${pdbName} needs ${pdb.status?.desiredHealthy ?? 0} healthy pods and has ${pdb.status?.currentHealthy ?? 0} currently`,
            }],
          };
          throw new StatusError(err.status);
        }
        if (!ctx.dryRun) {
          await store.update({ ...pdbCtx, subresource: 'status' }, pdbName, (current) => {
            if (!current) throw newNotFound({ group: 'policy', resource: 'poddisruptionbudgets' }, pdbName);
            const next = cloneJson(current) as Pdb;
            next.status = { ...next.status, disruptionsAllowed: Math.max(0, (next.status?.disruptionsAllowed ?? 0) - 1) };
            return next;
          });
        }
      }
    }
    await store.delete(pods, name, eviction.deleteOptions ?? {});
    return createdStatus();
  };
}
