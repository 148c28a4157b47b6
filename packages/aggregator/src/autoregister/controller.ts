// kube-aggregator's autoregister controller: every group version served in-process has a Local APIService, so
// `kubectl get apiservices` lists them all. Those served from the start are made once at start (label
// `automanaged: onstart`); those installed later (CustomResourceDefinitions') are kept in step and removed with
// them (`automanaged: true`). An APIService without the label belongs to its user and is never touched.
import type { GroupDefinition, KubeObject } from '@kapi/apimachinery';
import { coalesced, type ListSource, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import type { APIService } from '../apiservice/types.js';
import { localPriority } from './priorities.js';

export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

interface Desired {
  name: string;
  group: string;
  version: string;
  mode: 'onstart' | 'true';
}

/** The group versions the server serves itself: those with a resource that has verbs. */
export function servedGroupVersions(groups: readonly GroupDefinition[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const def of groups) {
    for (const r of def.resources) {
      if (r.verbs.length > 0) seen.set(`${def.group}/${r.version}`, { group: def.group, version: r.version });
    }
  }
  return [...seen.values()];
}

const specOf = (d: Desired) => {
  const priority = localPriority(d.group, d.version);
  return { group: d.group, version: d.version, groupPriorityMinimum: priority.group, versionPriority: priority.version };
};

/** Keeps the Local APIServices of the server's own group versions (`apiServices` follows the APIService objects). */
export function autoregister(host: PluginHost, entry: ResourceEntry, apiServices: ListSource): { sync(): Promise<void> } {
  const atStart = new Set<string>();
  let started = false;
  const syncedOnStart = new Set<string>();

  const desired = (): Desired[] =>
    servedGroupVersions(host.registry.groups).map(({ group, version }) => {
      const name = `${version}.${group}`;
      return { name, group, version, mode: atStart.has(name) ? 'onstart' : 'true' };
    });

  const once = async () => {
    const ctx = host.systemContext(entry);
    const existing = new Map(apiServices.objects().map((o) => [String((o.metadata as { name?: string }).name), o as APIService]));
    const wanted = desired();
    for (const d of wanted) {
      const current = existing.get(d.name);
      const spec = specOf(d);
      if (!current) {
        if (d.mode === 'onstart' && syncedOnStart.has(d.name)) continue;
        await host.store.create(ctx, { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: d.name, labels: { [AUTOMANAGED_LABEL]: d.mode } }, spec } as KubeObject)
          .catch((err) => ignoreConflict(err));
      } else if (current.metadata.labels?.[AUTOMANAGED_LABEL] && !current.spec.service && (d.mode === 'true' || !syncedOnStart.has(d.name))) {
        const differs = JSON.stringify(localSpec(current)) !== JSON.stringify(spec) || current.metadata.labels[AUTOMANAGED_LABEL] !== d.mode;
        if (differs) {
          await host.store.update(ctx, d.name, (obj) => {
            if (!obj) throw Object.assign(new Error('gone'), { gone: true });
            const o = obj as APIService;
            return { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, [AUTOMANAGED_LABEL]: d.mode } }, spec: { ...o.spec, ...spec } } as KubeObject;
          }).catch((err) => ignoreConflict(err));
        }
      }
      if (d.mode === 'onstart') syncedOnStart.add(d.name);
    }
    // Group versions installed later and gone again (a deleted CRD) lose their APIService.
    const names = new Set(wanted.map((d) => d.name));
    for (const [name, current] of existing) {
      if (names.has(name) || current.metadata.labels?.[AUTOMANAGED_LABEL] !== 'true' || current.spec.service) continue;
      await host.store.delete(ctx, name).catch((err) => ignoreConflict(err));
    }
  };

  const run = coalesced(once, (err) => host.log(1, `autoregister: ${err.message}`));
  const sync = async (): Promise<void> => {
    if (started) await run();
  };

  host.onStart(async () => {
    for (const { group, version } of servedGroupVersions(host.registry.groups)) atStart.add(`${version}.${group}`);
    started = true;
    await apiServices.sync();
    await sync();
  });
  host.registry.onChange(() => void sync());
  return { sync };
}

const localSpec = (o: APIService) => ({
  group: o.spec.group,
  version: o.spec.version,
  groupPriorityMinimum: o.spec.groupPriorityMinimum,
  versionPriority: o.spec.versionPriority,
});

/** Another server on the same storage did it first (AlreadyExists, Conflict, NotFound): the next sync sees its result. */
function ignoreConflict(err: unknown): void {
  const reason = (err as { status?: { reason?: string } }).status?.reason;
  if (reason === 'AlreadyExists' || reason === 'Conflict' || reason === 'NotFound' || (err as { gone?: boolean }).gone) return;
  throw err;
}
