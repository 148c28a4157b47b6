import type { WatchCache } from '../cacher/cacher.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import type { ApiServerMetrics } from './index.js';

/** A resource as kube's storage metrics name it: `pods`, `deployments.apps`. */
export const groupResource = (entry: ResourceEntry): string => (entry.info.group ? `${entry.info.plural}.${entry.info.group}` : entry.info.plural);

/**
 * Gauges and counters read from the watch cache at each scrape, so the request path pays nothing for them:
 * `apiserver_storage_objects`, `apiserver_registered_watchers` and kube's `apiserver_watch_cache_*` (events
 * received and dispatched, initializations, resource version). Until the cache is ready they keep their values.
 */
export function collectCacheState(metrics: ApiServerMetrics, registry: ResourceRegistry, cache: WatchCache): void {
  const seen = new Map<string, { received: number; dispatched: number; initializations: number }>();
  metrics.onCollect(() => {
    if (!cache.ready) return;
    for (const entry of registry.entries) {
      // Only what is stored: kinds that are bodies of subresources or reviews (Scale, Eviction, TokenReview) are not.
      if (!entry.info.verbs.includes('list')) continue;
      const collection = cache.collection(entry.keyPrefix);
      const resource = groupResource(entry);
      const { group, version, kind } = entry.info;
      metrics.storageObjects.set({ resource }, collection.size);
      metrics.registeredWatchers.set({ group, version, kind }, collection.subscribers.size);
      metrics.watchCacheResourceVersion.set({ resource }, cache.revision);
      // The cache's counters belong to its collection, once: a kind stored with another group's resource
      // (events.k8s.io Events in core `events`) shares that one's, counted under its own resource.
      if (entry.cohabiting) continue;
      const last = seen.get(resource) ?? { received: 0, dispatched: 0, initializations: 0 };
      const now = { ...collection.stats };
      metrics.watchCacheEventsReceived.inc({ resource }, now.received - last.received);
      metrics.watchCacheEventsDispatched.inc({ resource }, now.dispatched - last.dispatched);
      metrics.watchCacheInitializations.inc({ resource }, now.initializations - last.initializations);
      seen.set(resource, now);
    }
  });
}
