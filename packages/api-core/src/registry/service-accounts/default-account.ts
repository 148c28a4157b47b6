import { isStatusError } from '@kapi/apimachinery';
import { coalesced, type PluginHost } from '@kapi/apiserver';
import { findCachedOrLive } from './lookup.js';

const DEFAULT = 'default';

/**
 * kube's serviceaccounts controller: every namespace that is not being deleted has a `default` ServiceAccount,
 * created when the namespace appears and again when it is deleted.
 */
export function ensureDefaultServiceAccounts(host: PluginHost): void {
  const namespaces = host.registry.byKind('', 'v1', 'Namespace');
  const accounts = host.registry.byKind('', 'v1', 'ServiceAccount');
  if (!namespaces || !accounts) return;
  const sync = coalesced(async () => {
    for (const ns of (await host.store.list(host.systemContext(namespaces))).items) {
      const namespace = String(ns.metadata?.name ?? '');
      if (!namespace || ns.metadata?.deletionTimestamp || (ns as { status?: { phase?: string } }).status?.phase === 'Terminating') continue;
      const ctx = host.systemContext(accounts, { namespace });
      if (await findCachedOrLive(host, ctx, DEFAULT)) continue;
      try {
        await host.store.create(ctx, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT, namespace } });
      } catch (err) {
        // Created meanwhile (another server on the same storage), or the namespace began terminating: nothing to do.
        if (!isStatusError(err) || ![409, 403, 404].includes(Number(err.status.code))) host.log(1, `serviceaccounts controller: ${(err as Error).message}`);
      }
    }
  }, (err) => host.log(1, `serviceaccounts controller: ${(err as Error).message}`));
  host.onObjectsChange(namespaces, sync);
  host.onObjectsChange(accounts, sync, { name: DEFAULT });
}
