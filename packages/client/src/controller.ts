import { InformerFactory, type Informer } from './informer.js';
import type { ResourceClient } from './resource.js';
import type { KubeObject } from './types.js';
import { WorkQueue, type WorkQueueOptions } from './workqueue.js';

/** What a reconcile is asked about: the object's name (and namespace). */
export interface ReconcileRequest {
  namespace?: string;
  name: string;
}

/** Come back: after a delay, or now with backoff (`requeue`). Nothing: done until the object changes again. */
export type ReconcileResult = void | { requeueAfterMs?: number; requeue?: boolean };

export interface ReconcileContext<T extends KubeObject> {
  /** The object from the cache, or undefined when it is gone. */
  object: T | undefined;
  /** Aborted when the controller stops. */
  signal: AbortSignal;
}

export interface WatchSource<W extends KubeObject> {
  resource: ResourceClient<W>;
  /** The requests an event about `object` causes. */
  map: (object: W) => ReconcileRequest[];
}

export interface ControllerOptions<T extends KubeObject> {
  /** A name for logs. */
  name?: string;
  /** The kind reconciled: every change to one of its objects reconciles it. */
  for: ResourceClient<T>;
  /** Kinds it creates: a change to an object it controls (ownerReference with controller: true) reconciles the owner. */
  owns?: ResourceClient<any>[];
  /** Other kinds, mapped to the objects to reconcile. */
  watches?: WatchSource<any>[];
  reconcile: (request: ReconcileRequest, context: ReconcileContext<T>) => Promise<ReconcileResult>;
  /** Reconciles at once (1); one object is never reconciled twice at the same time. */
  concurrency?: number;
  /**
   * Share informers with other controllers. The factory's owner starts and stops them (with the factory's resync
   * period): `stop()` then leaves them running.
   */
  informers?: InformerFactory;
  queue?: WorkQueueOptions;
  resyncPeriodMs?: number;
  /** Where reconcile errors go (console.error by default); the request is retried with backoff. */
  onError?: (error: unknown, request: ReconcileRequest) => void;
}

export interface Controller<T extends KubeObject> {
  /** The informer of the reconciled kind: its store is the controller's cache. */
  readonly informer: Informer<T>;
  readonly queue: WorkQueue<string>;
  /** Starts the informers, waits for their first lists, then starts the workers. */
  start(): Promise<void>;
  /**
   * Stops the workers: no reconcile starts after this, running ones get an aborted signal and are waited for. The
   * informers stop too, unless they come from a shared factory (`informers`).
   */
  stop(): Promise<void>;
}

const keyOf = (r: ReconcileRequest) => (r.namespace ? `${r.namespace}/${r.name}` : r.name);
const requestOf = (key: string): ReconcileRequest => {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
};
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/**
 * A reconcile loop, as controller-runtime's: informers on the kind and the kinds it owns or watches feed a
 * rate-limited work queue of object keys, and `concurrency` workers call `reconcile` with each, retrying failures with
 * backoff. Reconcile is level-triggered: it reads the current object (from the cache) and makes the world match it.
 */
export function createController<T extends KubeObject>(options: ControllerOptions<T>): Controller<T> {
  const factory = options.informers ?? new InformerFactory({ resyncPeriodMs: options.resyncPeriodMs });
  const ownFactory = !options.informers;
  const queue = new WorkQueue<string>(options.queue);
  const informer = factory.informer(options.for);
  const enqueue = (r: ReconcileRequest) => queue.add(keyOf(r));
  const forObject = (o: KubeObject) => enqueue({ namespace: o.metadata?.namespace, name: o.metadata?.name ?? '' });
  informer.on({ add: forObject, update: (_, o) => forObject(o), delete: forObject });

  const { group, kind } = options.for.type;
  const ownerOf = (o: KubeObject) => {
    const ref = o.metadata?.ownerReferences?.find((r) => r.controller && r.kind === kind && groupOf(r.apiVersion) === group);
    // Owners are in the object's namespace, or cluster-scoped.
    if (ref) enqueue({ namespace: options.for.type.namespaced ? o.metadata?.namespace : undefined, name: ref.name });
  };
  for (const owned of options.owns ?? []) {
    factory.informer(owned).on({
      add: ownerOf,
      update: (old, o) => {
        ownerOf(old);
        ownerOf(o);
      },
      delete: ownerOf,
    });
  }
  for (const source of options.watches ?? []) {
    const mapped = (o: KubeObject) => source.map(o).forEach(enqueue);
    // Both sides of an update: a change can move an object from one target to another.
    factory.informer(source.resource).on({
      add: mapped,
      update: (old, o) => {
        mapped(old);
        mapped(o);
      },
      delete: mapped,
    });
  }

  const abort = new AbortController();
  let workers: Promise<void>[] = [];
  const report = options.onError ?? ((e, r) => console.error(`controller ${options.name ?? kind}: reconciling ${keyOf(r)}:`, e));

  async function work(): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      if (abort.signal.aborted) {
        queue.done(key);
        return;
      }
      const request = requestOf(key);
      try {
        const object = informer.store.get(key);
        const result = await options.reconcile(request, { object, signal: abort.signal });
        if (result && result.requeueAfterMs !== undefined) {
          queue.forget(key);
          queue.addAfter(key, result.requeueAfterMs);
        } else if (result && result.requeue) {
          queue.addRateLimited(key);
        } else {
          queue.forget(key);
        }
      } catch (error) {
        if (!abort.signal.aborted) {
          report(error, request);
          queue.addRateLimited(key);
        }
      } finally {
        queue.done(key);
      }
    }
  }

  return {
    informer,
    queue,
    async start() {
      await factory.start();
      if (abort.signal.aborted) return;
      workers = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () => work());
    },
    async stop() {
      abort.abort();
      queue.shutDown();
      await Promise.all(workers);
      if (ownFactory) await factory.stop();
    },
  };
}
