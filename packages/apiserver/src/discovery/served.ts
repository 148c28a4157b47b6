import type { GroupDefinition, ResourceInfo } from '@kapi/apimachinery';
import { sortByVersionPriority } from './version-priority.js';

/** One API group as discovery shows it: its versions by priority and the resources each version serves. */
export interface ServedGroup {
  /** Group name; `''` is the legacy core group served under /api. */
  name: string;
  /** Versions with at least one served resource, the preferred one first. */
  versions: string[];
  /** Served resources by version, in their definitions' order. */
  resources: ReadonlyMap<string, readonly ResourceInfo[]>;
}

// A kind without verbs (autoscaling/v1 Scale, policy/v1 Eviction) only names the body of a subresource; kube does
// not list it as a resource, and a group version with nothing to serve is not installed at all.
const isServed = (r: ResourceInfo): boolean => r.verbs.length > 0;

/**
 * The groups discovery lists, from the registered definitions: definitions of the same group are merged, kinds
 * without verbs are left out, and so are versions and groups left with no resource. The order is the core group,
 * then the named groups by name. kube orders /apis by group priority (a fixed table for built-in groups, then
 * APIService priorities); alphabetical is the stable stand-in for servers with no such table.
 */
export function servedGroups(definitions: readonly GroupDefinition[]): ServedGroup[] {
  const byName = new Map<string, Map<string, ResourceInfo[]>>();
  for (const def of definitions) {
    const versions = byName.get(def.group) ?? new Map<string, ResourceInfo[]>();
    byName.set(def.group, versions);
    for (const r of def.resources) {
      if (!isServed(r)) continue;
      const list = versions.get(r.version) ?? [];
      if (!list.some((seen) => seen.plural === r.plural)) list.push(r);
      versions.set(r.version, list);
    }
  }
  const groups: ServedGroup[] = [];
  for (const [name, resources] of byName) {
    if (resources.size === 0) continue;
    groups.push({ name, versions: sortByVersionPriority(resources.keys()), resources });
  }
  return groups.sort((a, b) => (a.name === b.name ? 0 : a.name === '' ? -1 : b.name === '' ? 1 : a.name < b.name ? -1 : 1));
}

/** `group/version`, or just `version` for the core group. */
export function groupVersionString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
