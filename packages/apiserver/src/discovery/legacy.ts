// The unaggregated discovery documents kube-apiserver serves: /api (APIVersions), /apis (APIGroupList),
// /apis/GROUP (APIGroup) and /api/v1, /apis/GROUP/VERSION (APIResourceList).
import { createHash } from 'node:crypto';
import type { APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery, ResourceInfo } from '@kapi/apimachinery';
import { groupVersionString, type ServedGroup } from './served.js';

const STATUS_VERBS = ['get', 'patch', 'update'];
const SCALE_VERBS = ['get', 'patch', 'update'];

const sortedVerbs = (verbs: readonly string[]): string[] => [...new Set(verbs)].sort();

/**
 * kube's storageVersionHash: the first 8 bytes of SHA-256 over `group/version/kind` of the storage version, in
 * base64 (`/v1/Pod` is `xPOwRZ+Yhw8=`). Opaque to clients; the storage migrator compares it for equality.
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** `/api`: the legacy versions and where to reach the server (`host:port` the client used). */
export function apiVersions(group: ServedGroup | undefined, serverAddress: string): APIVersions {
  // kube strips apiVersion from /api for compatibility with release 1.1 (discovery's stripVersionEncoder)
  return {
    kind: 'APIVersions',
    versions: group ? [...group.versions] : [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function versionsOf(group: ServedGroup): { versions: GroupVersionForDiscovery[]; preferredVersion: GroupVersionForDiscovery } {
  const versions = group.versions.map((version) => ({ groupVersion: groupVersionString(group.name, version), version }));
  return { versions, preferredVersion: versions[0] };
}

/** `/apis/GROUP`: the group's versions, the preferred one first. */
export function apiGroup(group: ServedGroup): APIGroup {
  return { kind: 'APIGroup', apiVersion: 'v1', name: group.name, ...versionsOf(group) };
}

/** `/apis`: every named group (the core group is served at /api). Entries carry no kind, as kube writes them. */
export function apiGroupList(groups: readonly ServedGroup[]): APIGroupList {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.filter((g) => g.name !== '').map((g) => ({ name: g.name, ...versionsOf(g) })),
  };
}

function subresourceEntry(
  parent: ResourceInfo,
  name: string,
  kind: { group?: string; version?: string; kind?: string },
  verbs: readonly string[],
): APIResource {
  const entry: APIResource = { name: `${parent.plural}/${name}`, singularName: '', namespaced: parent.scope === 'Namespaced', kind: '', verbs: [] };
  // kube names group and version only when the subresource's kind lives elsewhere (deployments/scale is autoscaling/v1)
  const group = kind.group ?? parent.group;
  const version = kind.version ?? parent.version;
  if (group !== parent.group || version !== parent.version) {
    if (group) entry.group = group;
    entry.version = version;
  }
  entry.kind = kind.kind ?? parent.kind;
  entry.verbs = sortedVerbs(verbs);
  return entry;
}

/** The APIResource entries of one resource: itself, then its subresources (status, scale, the others). */
export function apiResourcesOf(r: ResourceInfo, storageVersion = r.version): APIResource[] {
  const main: APIResource = {
    name: r.plural,
    singularName: r.singular,
    namespaced: r.scope === 'Namespaced',
    kind: r.kind,
    verbs: sortedVerbs(r.verbs),
  };
  if (r.shortNames.length > 0) main.shortNames = [...r.shortNames];
  if (r.categories.length > 0) main.categories = [...r.categories];
  main.storageVersionHash = storageVersionHash(r.group, storageVersion, r.kind);
  const entries = [main];
  if (r.subresources.status) entries.push(subresourceEntry(r, 'status', {}, STATUS_VERBS));
  if (r.subresources.scale) entries.push(subresourceEntry(r, 'scale', { group: 'autoscaling', version: 'v1', kind: 'Scale' }, SCALE_VERBS));
  for (const other of r.subresources.others ?? []) entries.push(subresourceEntry(r, other.name, other, other.verbs));
  return entries;
}

const byName = (a: APIResource, b: APIResource): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The resources of one group version, sorted by path as kube's installer registers them (`pods`, `pods/attach`, ...,
 * `pods/status`, `podtemplates`); undefined when the group does not serve `version`.
 */
export function apiResources(group: ServedGroup, version: string): APIResource[] | undefined {
  const resources = group.resources.get(version);
  if (!resources) return undefined;
  const storageVersionOf = (r: ResourceInfo): string =>
    group.versions.find((v) => group.resources.get(v)?.some((x) => x.plural === r.plural)) ?? r.version;
  return resources.flatMap((r) => apiResourcesOf(r, storageVersionOf(r))).sort(byName);
}

/** `/api/v1`, `/apis/GROUP/VERSION`; undefined when the group does not serve `version`. */
export function apiResourceList(group: ServedGroup, version: string): APIResourceList | undefined {
  const resources = apiResources(group, version);
  if (!resources) return undefined;
  const groupVersion = groupVersionString(group.name, version);
  // Like /api, the core group's list has no apiVersion (kube keeps it unversioned for old clients).
  return group.name === ''
    ? { kind: 'APIResourceList', groupVersion, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}
