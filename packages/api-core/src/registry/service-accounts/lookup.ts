import type { KubeObject } from '@kapi/apimachinery';
import type { PluginHost, RequestContext } from '@kapi/apiserver';

/**
 * An object as kube's listers with live lookup read it: from the watch cache first (resourceVersion "0"), and from
 * storage when the cache does not have it (it may not have caught up with a create yet).
 */
export async function findCachedOrLive(host: PluginHost, ctx: RequestContext, name: string): Promise<KubeObject | undefined> {
  return (await host.store.find(ctx, name, '0')) ?? (await host.store.find(ctx, name));
}
