// Aggregated discovery (apidiscovery.k8s.io/v2): every group, version and resource in one document, which
// kubectl asks /api and /apis for first. Built from the unaggregated resource lists, as kube's installer does
// (ConvertGroupVersionIntoToDiscovery), so both forms always show the same resources.
import type {
  APIGroupDiscovery,
  APIGroupDiscoveryList,
  APIResource,
  APIResourceDiscovery,
  APISubresourceDiscovery,
  APIVersionDiscovery,
} from '@kapi/apimachinery';
import { apiResources } from './legacy.js';
import type { ServedGroup } from './served.js';

export const AGGREGATED_DISCOVERY_GROUP = 'apidiscovery.k8s.io';
export const AGGREGATED_DISCOVERY_VERSION = 'v2';
export const AGGREGATED_DISCOVERY_KIND = 'APIGroupDiscoveryList';

/**
 * The resources of one group version in their aggregated form: subresources nest under their parent. A responseKind
 * names the group and version in full (kube leaves them empty for built-in kinds and fills them for custom
 * resources; clients read an empty one as the containing group version, so both mean the same).
 */
export function resourceDiscoveries(list: readonly APIResource[], group: string, version: string): APIResourceDiscovery[] {
  const gvk = (r: APIResource) => ({ group: r.version ? (r.group ?? '') : group, version: r.version || version, kind: r.kind });
  const scope = (r: APIResource) => (r.namespaced ? 'Namespaced' : 'Cluster');
  const parents = new Map<string, APIResourceDiscovery>();
  const out: APIResourceDiscovery[] = [];
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const entry: APIResourceDiscovery = {
      resource: r.name,
      responseKind: gvk(r),
      scope: scope(r),
      singularResource: r.singularName,
      verbs: [...r.verbs],
    };
    if (r.shortNames?.length) entry.shortNames = [...r.shortNames];
    if (r.categories?.length) entry.categories = [...r.categories];
    parents.set(r.name, entry);
    out.push(entry);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parentName = r.name.slice(0, slash);
    let parent = parents.get(parentName);
    if (!parent) {
      // a subresource without its parent's verbs: kube still lists the parent, with an empty responseKind
      parent = { resource: parentName, responseKind: { group: '', version: '', kind: '' }, scope: scope(r), singularResource: '', verbs: [] };
      parents.set(parentName, parent);
      out.push(parent);
    }
    const sub: APISubresourceDiscovery = { subresource: r.name.slice(slash + 1), responseKind: gvk(r), verbs: [...r.verbs] };
    (parent.subresources ??= []).push(sub);
  }
  return out;
}

/**
 * One group of the aggregated document: its versions, the preferred one first. A version another server serves
 * has the resources it listed and their freshness, and is left out while they are not known.
 */
export function apiGroupDiscovery(group: ServedGroup): APIGroupDiscovery {
  const versions: APIVersionDiscovery[] = [];
  for (const version of group.versions) {
    const external = group.external?.get(version);
    if (!external) {
      versions.push({ version, resources: resourceDiscoveries(apiResources(group, version) ?? [], group.name, version), freshness: 'Current' });
    } else if (external.resources) {
      versions.push({ version, resources: structuredClone(external.resources as APIResourceDiscovery[]), freshness: external.freshness ?? 'Current' });
    }
  }
  // metadata.name is omitted (Go's omitempty) for the core group ''
  return { metadata: group.name ? { name: group.name } : {}, versions };
}

/** An APIGroupDiscoveryList of `groups`, in order (the core group alone for /api, the named ones for /apis). */
export function apiGroupDiscoveryList(groups: readonly ServedGroup[]): APIGroupDiscoveryList {
  return {
    kind: AGGREGATED_DISCOVERY_KIND,
    apiVersion: `${AGGREGATED_DISCOVERY_GROUP}/${AGGREGATED_DISCOVERY_VERSION}`,
    metadata: {},
    items: groups.map(apiGroupDiscovery).filter((g) => (g.versions ?? []).length > 0),
  };
}
