import type { GroupDefinition, ResourceInfo } from '@kapi/apimachinery';
import type { ExternalDiscovery, ExternalGroupVersion } from '../host.js';
import { sortByVersionPriority } from './version-priority.js';

/** One API group as discovery shows it: its versions by priority and the resources each version serves. */
export interface ServedGroup {
  /** Group name; `''` is the legacy core group served under /api. */
  name: string;
  /** Versions with at least one served resource, the preferred one first. */
  versions: string[];
  /** Served resources by version, in their definitions' order. */
  resources: ReadonlyMap<string, readonly ResourceInfo[]>;
  /** Versions another server serves (behind the aggregator), with their resources in aggregated form when known. */
  external?: ReadonlyMap<string, ExternalGroupVersion>;
}

// A kind without verbs (autoscaling/v1 Scale, policy/v1 Eviction) only names the body of a subresource; kube does
// not list it as a resource, and a group version with nothing to serve is not installed at all.
const isServed = (r: ResourceInfo): boolean => r.verbs.length > 0;

/**
 * The groups discovery lists, from the registered definitions and the group versions other servers serve
 * (`external`, which take the place of the server's own of the same name): definitions of the same group are
 * merged, kinds without verbs are left out, and so are versions and groups left with no resource. The core group
 * comes first; named groups follow by the priorities `external` gives (kube-aggregator's groupPriorityMinimum,
 * higher first, then name), groups without one after them by name; versions by versionPriority, then kube's
 * version order.
 */
export function servedGroups(definitions: readonly GroupDefinition[], external?: ExternalDiscovery): ServedGroup[] {
  const remote = new Map<string, Map<string, ExternalGroupVersion>>();
  for (const gv of external?.versions ?? []) {
    const versions = remote.get(gv.group) ?? new Map<string, ExternalGroupVersion>();
    remote.set(gv.group, versions.set(gv.version, gv));
  }
  const byName = new Map<string, Map<string, ResourceInfo[]>>();
  for (const def of definitions) {
    const versions = byName.get(def.group) ?? new Map<string, ResourceInfo[]>();
    byName.set(def.group, versions);
    for (const r of def.resources) {
      if (!isServed(r) || remote.get(def.group)?.has(r.version)) continue;
      const list = versions.get(r.version) ?? [];
      if (!list.some((seen) => seen.plural === r.plural)) list.push(r);
      versions.set(r.version, list);
    }
  }
  for (const name of remote.keys()) if (!byName.has(name)) byName.set(name, new Map());
  const priorities = external?.priorities ?? new Map<string, { groupPriorityMinimum: number; versionPriority: number }>();
  const priorityOf = (group: string, version: string) => priorities.get(group ? `${group}/${version}` : version);
  const groups: (ServedGroup & { priority: number })[] = [];
  for (const [name, resources] of byName) {
    const others = remote.get(name);
    if (resources.size === 0 && !others?.size) continue;
    const all = [...resources.keys(), ...(others?.keys() ?? [])];
    const versions = sortByVersionPriority(all).sort((a, b) => (priorityOf(name, b)?.versionPriority ?? 0) - (priorityOf(name, a)?.versionPriority ?? 0));
    const priority = Math.max(0, ...versions.map((v) => priorityOf(name, v)?.groupPriorityMinimum ?? 0));
    groups.push({ name, versions, resources, ...(others?.size ? { external: others } : {}), priority });
  }
  groups.sort((a, b) => {
    if (a.name === '' || b.name === '') return a.name === '' ? -1 : 1;
    if (a.priority !== b.priority) return b.priority - a.priority;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  return groups.map(({ priority: _, ...group }) => group);
}

/** `group/version`, or just `version` for the core group. */
export function groupVersionString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
