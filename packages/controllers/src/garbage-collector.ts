import { cloneJson, isStatusError, newNotFound, type KubeObject } from '@kapi/apimachinery';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PluginHost, type ResourceEntry, type ServerController } from '@kapi/apiserver';
import { electLeader, type LeaderElectionOptions } from './leader-election.js';

interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
}

/** One object as the collector knows it (kube's graph node). */
interface Node {
  uid: string;
  entry: ResourceEntry;
  namespace: string;
  name: string;
  owners: OwnerRef[];
  deleting: boolean;
  finalizers: string[];
}

export interface GarbageCollectorOptions {
  /**
   * The Lease several servers on one storage elect the collecting one with (kube-system/kapi-garbage-collector by
   * default); false: collect without electing (a server alone on its storage).
   */
  leaderElection?: Partial<LeaderElectionOptions> | false;
  /** How often the collector looks for resources installed since (custom resources), in ms. */
  resyncResourcesMs?: number;
}

const SKIP = new Error('skip');
const gone = (err: unknown) => err === SKIP || (isStatusError(err) && [404, 409].includes(Number(err.status.code)));

/**
 * kube's garbage collector (pkg/controller/garbagecollector), in process: it follows every object of every resource
 * the server stores (custom resources too, as they are installed) and keeps the graph of their ownerReferences.
 *
 * - An object whose owners are all gone (deleted, or never existed: checked by name and uid) is deleted in the
 *   background; references to missing owners are removed while a solid owner remains.
 * - `propagationPolicy: Foreground` (the `foregroundDeletion` finalizer): the owner's dependents are deleted first
 *   (in the foreground themselves when they have dependents), and the owner goes once no dependent with
 *   `blockOwnerDeletion` is left.
 * - `Orphan` (the `orphan` finalizer): the dependents lose their references to the owner, then the owner goes.
 * - A cluster-scoped object with a namespaced owner is not collected (kube: an invalid reference); a namespaced owner is
 *   looked up in its dependent's namespace.
 *
 * Deletes then set those finalizers (PluginHost.enableGarbageCollection). With several servers on one storage, one
 * collects at a time, elected through a Lease.
 */
export function garbageCollector(options: GarbageCollectorOptions = {}): ServerController {
  return { name: 'garbage-collector', install: (host) => installGarbageCollector(host, options) };
}

function installGarbageCollector(host: PluginHost, options: GarbageCollectorOptions): void {
  host.enableGarbageCollection();
  const nodes = new Map<string, Node>();
  const dependents = new Map<string, Set<string>>();
  const followed = new Map<string, boolean>(); // storage prefix → listed at least once
  const attempts = new Set<string>();
  /** How many times in a row the work on an object failed (its retries back off). */
  const failures = new Map<string, number>();
  const ownerWork = new Set<string>();
  let leading = options.leaderElection === false;
  let stopped = false;

  const link = (node: Node, on: boolean) => {
    for (const ref of node.owners) {
      let set = dependents.get(ref.uid);
      if (on) {
        if (!set) dependents.set(ref.uid, (set = new Set()));
        set.add(node.uid);
      } else if (set) {
        set.delete(node.uid);
        if (!set.size) dependents.delete(ref.uid);
      }
    }
  };
  const dependentsOf = (uid: string) => [...(dependents.get(uid) ?? [])].map((d) => nodes.get(d)).filter((n): n is Node => !!n);
  const foregroundDeleting = (n: Node | undefined) => !!n && n.deleting && n.finalizers.includes(FOREGROUND_FINALIZER);

  const nodeOf = (entry: ResourceEntry, obj: KubeObject): Node | undefined => {
    const meta = (obj.metadata ?? {}) as { uid?: string; name?: string; namespace?: string; ownerReferences?: OwnerRef[]; deletionTimestamp?: string; finalizers?: string[] };
    if (!meta.uid) return undefined;
    return {
      uid: meta.uid,
      entry,
      namespace: meta.namespace ?? '',
      name: meta.name ?? '',
      owners: (meta.ownerReferences ?? []).filter((r) => r && typeof r.uid === 'string' && r.uid),
      deleting: !!meta.deletionTimestamp,
      finalizers: meta.finalizers ?? [],
    };
  };

  const removed = (node: Node) => {
    nodes.delete(node.uid);
    failures.delete(node.uid);
    link(node, false);
    for (const dep of dependents.get(node.uid) ?? []) attempts.add(dep);
    for (const ref of node.owners) if (foregroundDeleting(nodes.get(ref.uid))) ownerWork.add(ref.uid);
  };

  const upsert = (node: Node) => {
    const old = nodes.get(node.uid);
    if (old) link(old, false);
    nodes.set(node.uid, node);
    link(node, true);
    const ownersChanged = !old || old.owners.length !== node.owners.length || old.owners.some((r, i) => r.uid !== node.owners[i]?.uid);
    if (node.owners.length && (ownersChanged || node.deleting !== old?.deleting)) attempts.add(node.uid);
    if (node.deleting && (node.finalizers.includes(ORPHAN_FINALIZER) || node.finalizers.includes(FOREGROUND_FINALIZER))) {
      ownerWork.add(node.uid);
      if (!foregroundDeleting(old) && foregroundDeleting(node)) for (const dep of dependents.get(node.uid) ?? []) attempts.add(dep);
    }
    // An owner that was deleting in the foreground: a dependent that changed (or dropped its reference to it) may no
    // longer block it.
    for (const ref of [...node.owners, ...(old?.owners ?? [])]) if (foregroundDeleting(nodes.get(ref.uid))) ownerWork.add(ref.uid);
  };

  const ctxOf = (node: Node) => host.systemContext(node.entry, { namespace: node.namespace });

  /** Updates the object of `node` if it is still that object (same uid); nothing when it is gone. */
  const updateNode = async (node: Node, change: (obj: KubeObject) => void) => {
    try {
      await host.store.update(ctxOf(node), node.name, (current) => {
        if (!current) throw newNotFound({ group: node.entry.info.group, resource: node.entry.info.plural }, node.name);
        if (current.metadata?.uid !== node.uid) throw SKIP;
        const next = cloneJson(current);
        change(next);
        return next;
      });
    } catch (err) {
      if (!gone(err)) throw err;
    }
  };

  const deleteNode = async (node: Node, propagationPolicy: string) => {
    try {
      await host.store.delete(ctxOf(node), node.name, { preconditions: { uid: node.uid }, propagationPolicy });
    } catch (err) {
      if (!gone(err)) throw err;
    }
  };

  /** The resource of the kind an owner reference names, if the server serves it. */
  const entryOfRef = (ref: OwnerRef) => {
    const slash = ref.apiVersion.lastIndexOf('/');
    return host.registry.byKind(slash < 0 ? '' : ref.apiVersion.slice(0, slash), ref.apiVersion.slice(slash + 1), ref.kind);
  };

  type OwnerState = 'solid' | 'dangling' | 'waiting' | 'invalid';
  /**
   * kube's classifyReferences and isDangling: the owner a reference names is looked for by kind and name, in the
   * dependent's namespace when the kind is namespaced (a uid alone proves nothing: it may be another object's). The
   * graph answers when it holds that very object; storage otherwise. A namespaced owner of a cluster-scoped object is
   * an invalid reference; a kind the server does not serve (yet) or cannot read is retried later.
   */
  const ownerState = async (node: Node, ref: OwnerRef): Promise<OwnerState> => {
    const entry = entryOfRef(ref);
    if (!entry || !entry.info.verbs.includes('get')) throw new Error(`owner kind ${ref.apiVersion}, Kind=${ref.kind} cannot be read`);
    const namespaced = entry.info.scope === 'Namespaced';
    if (namespaced && !node.namespace) return 'invalid';
    const namespace = namespaced ? node.namespace : '';
    const known = nodes.get(ref.uid);
    if (known && known.entry.keyPrefix === entry.keyPrefix && known.name === ref.name && known.namespace === namespace) {
      return foregroundDeleting(known) ? 'waiting' : 'solid';
    }
    const owner = await host.store.find(host.systemContext(entry, { namespace }), ref.name);
    if (!owner || owner.metadata?.uid !== ref.uid) return 'dangling';
    const meta = owner.metadata as { deletionTimestamp?: string; finalizers?: string[] };
    return meta.deletionTimestamp && meta.finalizers?.includes(FOREGROUND_FINALIZER) ? 'waiting' : 'solid';
  };

  /** kube's attemptToDeleteItem. */
  const attemptToDelete = async (uid: string) => {
    const node = nodes.get(uid);
    if (!node || !node.owners.length) return;
    if (node.deleting && !foregroundDeleting(node)) return;
    const states = await Promise.all(node.owners.map((ref) => ownerState(node, ref)));
    // An invalid reference (a namespaced owner of a cluster-scoped object): kube leaves the object alone.
    if (states.includes('invalid')) return;
    const withoutRefs = (drop: Set<string>) => (obj: KubeObject) => {
      const meta = obj.metadata as { ownerReferences?: OwnerRef[] };
      meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => !drop.has(r.uid));
      if (!meta.ownerReferences.length) delete meta.ownerReferences;
    };
    if (states.includes('solid')) {
      const drop = new Set(node.owners.filter((_, i) => states[i] !== 'solid').map((r) => r.uid));
      if (drop.size) await updateNode(node, withoutRefs(drop));
      return;
    }
    const waiting = new Set(node.owners.filter((_, i) => states[i] === 'waiting').map((r) => r.uid));
    const ownDependents = dependentsOf(uid);
    if (waiting.size && ownDependents.length) {
      // A dependent that is itself deleting its dependents would wait on this object's owners while they wait on it
      // (a cycle): this object stops blocking its owners first (kube's unblockOwnerReferences).
      if (ownDependents.some(foregroundDeleting)) {
        await updateNode(node, (obj) => {
          for (const r of ((obj.metadata as { ownerReferences?: OwnerRef[] }).ownerReferences ?? [])) if (waiting.has(r.uid)) r.blockOwnerDeletion = false;
        });
      }
      return deleteNode(node, 'Foreground');
    }
    const policy = node.finalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : node.finalizers.includes(FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
    await deleteNode(node, policy);
  };

  const removeFinalizer = (node: Node, finalizer: string) =>
    updateNode(node, (obj) => {
      const meta = obj.metadata as { finalizers?: string[] };
      meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
    });

  /**
   * Whether `dep`'s reference `ref` really names `owner`: the same kind and name, in the dependent's namespace for a
   * namespaced owner (so not from a cluster-scoped dependent). A uid copied into a reference proves nothing.
   */
  const refersTo = (dep: Node, ref: OwnerRef, owner: Node) => {
    const entry = entryOfRef(ref);
    return !!entry && entry.keyPrefix === owner.entry.keyPrefix && ref.name === owner.name && (owner.namespace === '' || owner.namespace === dep.namespace);
  };

  /** kube's orphanDependents and processDeletingDependentsItem, for an owner being deleted. */
  const processOwner = async (uid: string) => {
    const node = nodes.get(uid);
    if (!node || !node.deleting) return;
    if (node.finalizers.includes(ORPHAN_FINALIZER)) {
      for (const dep of dependentsOf(uid).filter((d) => d.owners.some((r) => r.uid === uid && refersTo(d, r, node)))) {
        await updateNode(dep, (obj) => {
          const meta = obj.metadata as { ownerReferences?: OwnerRef[] };
          meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => r.uid !== uid);
          if (!meta.ownerReferences.length) delete meta.ownerReferences;
        });
      }
      await removeFinalizer(node, ORPHAN_FINALIZER);
      return;
    }
    if (!node.finalizers.includes(FOREGROUND_FINALIZER)) return;
    const blocking = dependentsOf(uid).filter((dep) => dep.owners.some((r) => r.uid === uid && r.blockOwnerDeletion && refersTo(dep, r, node)));
    if (!blocking.length) return removeFinalizer(node, FOREGROUND_FINALIZER);
    for (const dep of blocking) if (!foregroundDeleting(dep)) attempts.add(dep.uid);
  };

  const synced = () => followed.size > 0 && [...followed.values()].every(Boolean);
  let running = false;
  const work = async () => {
    if (running) return;
    running = true;
    try {
      while (!stopped && leading && synced() && (attempts.size || ownerWork.size)) {
        // Dependents first: an owner deleting in the foreground is looked at once they are done, not after each.
        const [uid, owner] = attempts.size ? [attempts.values().next().value!, false] : [ownerWork.values().next().value!, true];
        (owner ? ownerWork : attempts).delete(uid);
        try {
          await (owner ? processOwner(uid) : attemptToDelete(uid));
          failures.delete(uid);
        } catch (err) {
          // Tried again later, each time after twice as long up to a minute (kube's rate-limited requeue).
          const n = (failures.get(uid) ?? 0) + 1;
          failures.set(uid, n);
          host.log(n === 1 ? 2 : 4, `garbage collector: ${uid}: ${(err as Error).message}`);
          setTimeout(() => {
            (owner ? ownerWork : attempts).add(uid);
            kick();
          }, Math.min(500 * 2 ** n, 60_000)).unref();
        }
      }
    } finally {
      running = false;
    }
  };
  let kicked = false;
  const kick = () => {
    if (kicked || stopped) return;
    kicked = true;
    setImmediate(() => {
      kicked = false;
      void work();
    });
  };

  const follow = (entry: ResourceEntry) => {
    if (followed.has(entry.keyPrefix)) return;
    followed.set(entry.keyPrefix, false);
    host.watchObjects(entry, {
      reset(objects) {
        const seen = new Set<string>();
        for (const obj of objects) {
          const node = nodeOf(entry, obj);
          if (!node) continue;
          seen.add(node.uid);
          upsert(node);
        }
        for (const node of [...nodes.values()]) if (node.entry.keyPrefix === entry.keyPrefix && !seen.has(node.uid)) removed(node);
        // Objects whose owners were not known: their owners may be of this resource (newly followed: a custom
        // resource), and gone before it was, with no event to tell.
        for (const node of nodes.values()) if (node.owners.some((r) => !nodes.has(r.uid))) attempts.add(node.uid);
        followed.set(entry.keyPrefix, true);
        kick();
      },
      event(type, obj) {
        const node = nodeOf(entry, obj);
        if (!node) return;
        if (type === 'DELETED') removed(nodes.get(node.uid) ?? node);
        else upsert(node);
        kick();
      },
    });
  };
  // Every stored resource once (a kind served in several versions shares its storage), and those installed later.
  const followAll = () => {
    for (const entry of host.registry.entries) {
      if (!entry.info.verbs.includes('watch') || !entry.info.verbs.includes('delete')) continue;
      // kube's collector ignores Events (core and events.k8s.io): they are many, short-lived, and own nothing.
      if (entry.info.plural === 'events' && (entry.info.group === '' || entry.info.group === 'events.k8s.io')) continue;
      follow(entry);
    }
  };
  followAll();
  const resync = setInterval(followAll, options.resyncResourcesMs ?? 2000);
  resync.unref();

  if (options.leaderElection !== false) {
    electLeader(host, { name: 'kapi-garbage-collector', ...options.leaderElection }, (now) => {
      leading = now;
      if (now) {
        // A new leader starts from what it knows: everything that may need work.
        for (const node of nodes.values()) {
          if (node.owners.length) attempts.add(node.uid);
          if (node.deleting) ownerWork.add(node.uid);
        }
        kick();
      }
    });
  }
  host.onStop(() => {
    stopped = true;
    clearInterval(resync);
  });
}
