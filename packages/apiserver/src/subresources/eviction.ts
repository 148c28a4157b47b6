import {
  labelSelectorFromObject,
  newNotFound,
  newTooManyRequests,
  StatusError,
  type KubeObject,
} from '@kapi/apimachinery';
import { decodeLoose } from '../endpoints/decode.js';
import type { SubresourceHandler } from '../endpoints/resource-handler.js';
import { render, response } from '../endpoints/respond.js';
import type { DeleteOptions } from '../registry/delete.js';
import { ALL_OBJECTS } from '../registry/list.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { Store } from '../registry/store.js';

type Pdb = KubeObject & { spec?: { selector?: unknown }; status?: { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number } };

/**
 * `pods/NAME/eviction` (policy/v1 Eviction): deletes the pod unless a PodDisruptionBudget selecting it allows
 * no disruption, in which case it answers 429 as kube does; an allowed eviction uses up one disruption.
 */
export function evictionHandler(store: Store, registry: ResourceRegistry): SubresourceHandler {
  return async ({ info, ctx, body }) => {
    const eviction = (decodeLoose('json', await body()) ?? {}) as { deleteOptions?: DeleteOptions };
    const pods = { ...ctx, subresource: '' };
    const pod = await store.get(pods, info.name);
    const pdbEntry = registry.byKind('policy', 'v1', 'PodDisruptionBudget');
    if (pdbEntry) {
      const pdbCtx = { ...ctx, entry: pdbEntry, subresource: '' };
      const list = await store.list(pdbCtx, ALL_OBJECTS);
      const labels = (pod.metadata as { labels?: Record<string, string> }).labels ?? {};
      for (const pdb of list.items as Pdb[]) {
        const selector = pdb.spec?.selector;
        if (!selector || !labelSelectorFromObject(selector as never).matches(labels)) continue;
        const allowed = pdb.status?.disruptionsAllowed ?? 0;
        const pdbName = String((pdb.metadata as { name: string }).name);
        if (allowed <= 0) {
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
            const next = structuredClone(current) as Pdb;
            next.status = { ...next.status, disruptionsAllowed: Math.max(0, (next.status?.disruptionsAllowed ?? 0) - 1) };
            return next;
          });
        }
      }
    }
    await store.delete(pods, info.name, eviction.deleteOptions ?? {});
    return response(render({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, { kind: 'json' }), 201);
  };
}
