import type { CustomResourceDefinition } from '@kapi/api-apiextensions';
import { newMethodNotSupported, StatusError, type KubeObject } from '@kapi/apimachinery';
import { ALL_OBJECTS, createWebhookClient, serviceResolver, type InstalledGroup, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import { customResourcePlugin } from '../customresource/definition.js';
import { conditionOf, setCondition } from './conditions.js';
import { decideNames } from './names.js';
import { apiApprovalState, isProtectedCommunityGroup } from '../validation/approval.js';
import { CLEANUP_FINALIZER } from './strategy.js';

/** kube's answer to a create of a custom resource whose CRD is being deleted. */
function terminatingError(crd: CustomResourceDefinition): StatusError {
  const err = newMethodNotSupported({ group: crd.spec.group, resource: crd.status?.acceptedNames?.plural || crd.spec.names.plural }, 'create');
  return new StatusError({ ...err.status, message: 'create not allowed while custom resource definition is terminating' });
}

/** How long a failed or unfinished step waits before the controller tries again. */
const RETRY_MS = 1000;

interface Served {
  /** What the served group was built from: a change of it reinstalls the group. */
  key: string;
  /** The versions' schemas: a change of them reads the stored objects again (new defaults apply). */
  schemas: string;
  group: InstalledGroup;
}

const byAge = (a: CustomResourceDefinition, b: CustomResourceDefinition) => {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  return ta === tb ? ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1) : ta < tb ? -1 : 1;
};

/**
 * The controllers of apiextensions-apiserver in one loop, run whenever CRDs change (on this server or another on
 * the same storage): the naming controller (accepted names and NamesAccepted), the establishing controller
 * (Established, once the custom resources are served), the serving of each CRD's custom resources (its group
 * installed in the server, replaced when the CRD changes, uninstalled when it is gone), and the finalizer that
 * deletes every custom resource of a deleted CRD before letting it go.
 */
export function createCRDController(host: PluginHost, crdEntry: ResourceEntry) {
  const served = new Map<string, Served>();
  const webhookClient = createWebhookClient(serviceResolver(host));
  let running: Promise<void> = Promise.resolve();
  let again = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const crdCtx = (subresource = '') => host.systemContext(crdEntry, { subresource });
  const log = (message: string) => host.log(1, `customresourcedefinitions: ${message}`);

  /** Resources and kinds of the group that something other than a CRD serves. */
  const builtIns = (group: string) => {
    const ours = new Set<ResourceEntry>([...served.values()].flatMap((s) => s.group.entries));
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const entry of host.registry.entries) {
      if (entry.info.group !== group || ours.has(entry)) continue;
      for (const n of [entry.info.plural, entry.info.singular, ...entry.info.shortNames]) if (n) resources.add(n);
      kinds.add(entry.info.kind).add(entry.info.listKind);
    }
    return { resources, kinds };
  };

  const writeStatus = async (crd: CustomResourceDefinition) => {
    await host.store.update(crdCtx('status'), crd.metadata!.name!, (current) => ({ ...current!, status: structuredClone(crd.status) as unknown as KubeObject['status'] }));
  };

  /** Serves a CRD's custom resources as it now is; false when its group could not be installed. */
  const serve = async (crd: CustomResourceDefinition, terminating = false): Promise<boolean> => {
    const name = crd.metadata!.name!;
    const key = JSON.stringify([crd.spec, crd.status?.acceptedNames, terminating]);
    const schemas = JSON.stringify(crd.spec.versions.map((v) => v.schema));
    const current = served.get(name);
    if (current?.key === key) return true;
    try {
      const plugin = customResourcePlugin(crd, { webhookClient, ...(terminating ? { refuseCreate: () => terminatingError(crd) } : {}) });
      const group = await host.installGroup(plugin, { replaces: current?.group, refresh: !!current && current.schemas !== schemas });
      served.set(name, { key, schemas, group });
      return true;
    } catch (err) {
      log(`${name}: cannot serve its resources: ${(err as Error).message}`);
      return false;
    }
  };

  const stopServing = (name: string) => {
    served.get(name)?.group.uninstall();
    served.delete(name);
  };

  /** A deleted CRD: its custom resources are deleted, then its finalizer removed (the Store then removes it). */
  const finalize = async (crd: CustomResourceDefinition): Promise<boolean> => {
    const name = crd.metadata!.name!;
    if (!crd.metadata?.finalizers?.includes(CLEANUP_FINALIZER)) {
      stopServing(name);
      return true;
    }
    const next = structuredClone(crd);
    if (setCondition(next, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' })) await writeStatus(next);
    let remaining = 0;
    if (next.status?.acceptedNames?.plural && (await serve(next, true))) {
      const entry = served.get(name)!.group.entries[0];
      const { results } = await host.store.deleteCollection(host.systemContext(entry), ALL_OBJECTS);
      remaining = results.filter((r) => !r.removed).length;
    }
    if (remaining > 0) {
      setCondition(next, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: `CustomResourceDefinition marked for deletion; ${remaining} instance(s) are waiting for their finalizers` });
      await writeStatus(next);
      return false;
    }
    stopServing(name);
    await host.store.update(crdCtx(), name, (current) => {
      const obj = structuredClone(current!);
      const meta = obj.metadata as { finalizers?: string[] };
      meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      return obj;
    });
    return true;
  };

  /** One CRD that is not being deleted: names decided, resources served, conditions written. */
  const reconcile = async (crd: CustomResourceDefinition, all: CustomResourceDefinition[]): Promise<CustomResourceDefinition> => {
    const next = structuredClone(crd);
    const { accepted, conflict } = decideNames(crd, all, builtIns(crd.spec.group));
    next.status = { ...next.status, acceptedNames: accepted };
    setCondition(
      next,
      conflict
        ? { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message }
        : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
    );
    // kube's naming controller: a CRD is established only once all its names are accepted; one established before
    // stays served by the names accepted then while a rename waits.
    const established = conditionOf(crd, 'Established')?.status === 'True';
    const servable = !!accepted.plural && !!accepted.kind && (!conflict || established) && (await serve(next));
    if (servable) {
      setCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    } else if (conditionOf(next, 'Established')?.status !== 'True') {
      setCondition(next, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    }
    // kube's API approval controller: CRDs of protected groups (*.k8s.io, *.kubernetes.io) say whether they are approved.
    if (isProtectedCommunityGroup(crd.spec.group)) {
      const [state, message] = apiApprovalState(crd.metadata?.annotations as Record<string, string> | undefined);
      const reason = { Approved: 'ApprovedAnnotation', Bypassed: 'UnapprovedAnnotation', Missing: 'MissingAnnotation', Invalid: 'InvalidAnnotation' }[state];
      setCondition(next, { type: 'KubernetesAPIApprovalPolicyConformant', status: state === 'Approved' ? 'True' : 'False', reason, message });
    }
    if (JSON.stringify(next.status) !== JSON.stringify(crd.status)) await writeStatus(next);
    return next;
  };

  const syncOnce = async () => {
    const list = await host.store.list(crdCtx());
    const crds = (list.items as unknown as CustomResourceDefinition[]).sort(byAge);
    const present = new Set<string>();
    let unfinished = false;
    for (let i = 0; i < crds.length; i++) {
      const crd = crds[i];
      const name = crd.metadata!.name!;
      present.add(name);
      try {
        if (crd.metadata?.deletionTimestamp) unfinished = !(await finalize(crd)) || unfinished;
        else crds[i] = await reconcile(crd, crds);
      } catch (err) {
        log(`${name}: ${(err as Error).message}`);
        unfinished = true;
      }
    }
    for (const name of [...served.keys()]) if (!present.has(name)) stopServing(name);
    if (unfinished) schedule();
  };

  const schedule = () => {
    if (retry || stopped) return;
    retry = setTimeout(() => {
      retry = undefined;
      void sync();
    }, RETRY_MS);
    retry.unref?.();
  };

  /** Runs the loop; calls while it runs make it run once more after (never two at once). */
  const sync = (): Promise<void> => {
    if (stopped) return running;
    if (again) return running;
    again = true;
    running = running.then(async () => {
      again = false;
      if (stopped) return;
      try {
        await syncOnce();
      } catch (err) {
        log((err as Error).message);
        schedule();
      }
    });
    return running;
  };

  return {
    sync,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      webhookClient.close();
    },
  };
}
