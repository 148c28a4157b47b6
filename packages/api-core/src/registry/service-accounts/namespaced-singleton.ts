import { isStatusError, type KubeObject } from '@kapi/apimachinery';
import { coalesced, type PluginHost, type RequestContext, type ResourceEntry } from '@kapi/apiserver';
import { findCachedOrLive } from './lookup.js';

/**
 * kube-controller-manager's per-namespace controllers (serviceaccounts, root-ca-cert-publisher): one object named
 * `name` of `entry` in every namespace that is not being deleted, synced when a namespace appears and whenever that
 * object changes or goes. `sync` makes or mends it (`found` is the stored one, if any); losing a race to another
 * writer (another server on the same storage) or to the namespace's deletion is nothing to report.
 */
export function keepInEveryNamespace(
  host: PluginHost,
  entry: ResourceEntry,
  name: string,
  controller: string,
  sync: (ctx: RequestContext, namespace: string, found: KubeObject | undefined) => Promise<void>,
): void {
  const namespaces = host.registry.byKind('', 'v1', 'Namespace');
  if (!namespaces) return;
  const run = coalesced(async () => {
    for (const ns of (await host.store.list(host.systemContext(namespaces))).items) {
      const namespace = String(ns.metadata?.name ?? '');
      if (!namespace || ns.metadata?.deletionTimestamp || (ns as { status?: { phase?: string } }).status?.phase === 'Terminating') continue;
      const ctx = host.systemContext(entry, { namespace });
      try {
        await sync(ctx, namespace, await findCachedOrLive(host, ctx, name));
      } catch (err) {
        if (!isStatusError(err) || ![409, 403, 404].includes(Number(err.status.code))) host.log(1, `${controller}: ${(err as Error).message}`);
      }
    }
  }, (err) => host.log(1, `${controller}: ${err.message}`));
  host.onObjectsChange(namespaces, run);
  host.onObjectsChange(entry, run, { name });
}
