import type { GroupPlugin } from '@kapi/apiserver';

/** The groups `kapi-testing serve` can serve beside core, by name, with the package each comes from. */
export const GROUPS: Record<string, () => Promise<GroupPlugin>> = {
  apps: async () => (await import('@kapi/api-apps')).plugin,
  batch: async () => (await import('@kapi/api-batch')).plugin,
  coordination: async () => (await import('@kapi/api-coordination')).plugin,
  networking: async () => (await import('@kapi/api-networking')).plugin,
  policy: async () => (await import('@kapi/api-policy')).plugin,
  rbac: async () => (await import('@kapi/api-rbac')).plugin,
  apiextensions: async () => (await import('@kapi/apiextensions')).plugin,
};

/** The plugins of the groups named (`all`: every one above); an unknown name is an error listing the known. */
export async function loadGroups(names: string[]): Promise<GroupPlugin[]> {
  const wanted = names.includes('all') ? Object.keys(GROUPS) : names;
  const unknown = wanted.filter((n) => !(n in GROUPS));
  if (unknown.length) throw new Error(`unknown group ${unknown.join(', ')}: known groups are ${Object.keys(GROUPS).join(', ')} (and all)`);
  return Promise.all(wanted.map((n) => GROUPS[n]()));
}
