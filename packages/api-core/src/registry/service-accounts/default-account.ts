import type { PluginHost } from '@kapi/apiserver';
import { keepInEveryNamespace } from './namespaced-singleton.js';

const DEFAULT = 'default';

/**
 * kube's serviceaccounts controller: every namespace that is not being deleted has a `default` ServiceAccount,
 * created when the namespace appears and again when it is deleted.
 */
export function ensureDefaultServiceAccounts(host: PluginHost): void {
  const accounts = host.registry.byKind('', 'v1', 'ServiceAccount');
  if (!accounts) return;
  keepInEveryNamespace(host, accounts, DEFAULT, 'serviceaccounts controller', async (ctx, namespace, found) => {
    if (!found) await host.store.create(ctx, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT, namespace } });
  });
}
