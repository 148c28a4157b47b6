import { cloneJson, type KubeObject } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import { ALL_OBJECTS } from '../registry/list.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import type { RequestContext, Store } from '../registry/store.js';
import { NAMESPACE_FINALIZER } from './strategy.js';

const RETRY_MS = 500;

/**
 * The namespace controller, in process: when a namespace is Terminating it deletes everything in it, waits for
 * objects held by finalizers, then removes the `kubernetes` finalizer so the namespace itself goes.
 */
export function createNamespaceController(store: Store, registry: ResourceRegistry, user: UserInfo, log: (level: number, msg: string) => void) {
  const namespaces = registry.byKind('', 'v1', 'Namespace');
  const pending = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  const ctxFor = (entry: ResourceEntry, namespace: string, subresource = ''): RequestContext => ({
    entry, namespace, user, dryRun: false, subresource,
  });

  const schedule = (name: string, delay = 0) => {
    if (stopped || pending.has(name)) return;
    pending.set(name, setTimeout(() => {
      pending.delete(name);
      sweep(name).catch((err) => {
        log(0, `namespace controller: ${name}: ${(err as Error).message}`);
        schedule(name, RETRY_MS);
      });
    }, delay));
  };

  async function sweep(name: string) {
    if (!namespaces) return;
    const ns = await store.find(ctxFor(namespaces, ''), name);
    if (!ns) return;
    let remaining = 0;
    for (const entry of registry.entries) {
      if (entry.info.scope !== 'Namespaced' || !entry.info.verbs.includes('delete') || !entry.info.verbs.includes('list')) continue;
      // kube's namespacedResourcesDeleter: Background, so objects the garbage collector holds do not hold the namespace.
      const { results } = await store.deleteCollection(ctxFor(entry, name), ALL_OBJECTS, { propagationPolicy: 'Background' });
      remaining += results.filter((r) => !r.removed).length;
    }
    if (remaining > 0) {
      schedule(name, RETRY_MS);
      return;
    }
    await store.update(ctxFor(namespaces, '', 'finalize'), name, (current) => {
      const obj = cloneJson(current!) as KubeObject & { spec?: { finalizers?: string[] } };
      obj.spec = { ...obj.spec, finalizers: (obj.spec?.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) };
      return obj;
    });
  }

  return {
    /** Hook for the Store's onWrite: reacts to namespaces being terminated and to content leaving them. */
    onWrite(entry: ResourceEntry, type: string, obj: KubeObject) {
      const meta = obj.metadata as { name?: string; namespace?: string; deletionTimestamp?: string };
      if (entry === namespaces) {
        if (type !== 'DELETED' && meta.deletionTimestamp) schedule(String(meta.name));
      } else if (namespaces && type === 'DELETED' && meta.namespace && pending.size === 0) {
        // Content held by finalizers went away: a terminating namespace may now be empty. (A server without
        // Namespaces, an extension server, has none to finish.)
        void store.find(ctxFor(namespaces, ''), meta.namespace).then(
          (ns) => {
            if ((ns?.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp) schedule(meta.namespace!);
          },
          () => {},
        );
      }
    },
    /** Picks up namespaces left Terminating (after a restart on durable storage). */
    async resync() {
      if (!namespaces) return;
      const list = await store.list(ctxFor(namespaces, ''), ALL_OBJECTS);
      for (const ns of list.items) {
        const meta = ns.metadata as { name: string; deletionTimestamp?: string };
        if (meta.deletionTimestamp) schedule(meta.name);
      }
    },
    stop() {
      stopped = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}
