// What an extension says about itself is checked before it joins the main server's documents: one malformed entry
// must not break discovery or OpenAPI for every client (kube decodes them into typed structs and drops what does
// not decode).
import type { APIResourceDiscovery, APISubresourceDiscovery } from '@kapi/apimachinery';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every(isString) ? [...v] : undefined);
/** A resource or subresource name: a path segment. */
const isName = (v: unknown): v is string => isString(v) && v !== '' && !v.includes('/') && v !== '.' && v !== '..';

function groupVersionKind(v: unknown): { group: string; version: string; kind: string } | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) return undefined;
  const { group = '', version = '', kind = '' } = v;
  return isString(group) && isString(version) && isString(kind) ? { group, version, kind } : undefined;
}

function subresource(v: unknown): APISubresourceDiscovery | undefined {
  if (!isObject(v) || !isName(v.subresource)) return undefined;
  const verbs = strings(v.verbs);
  if (!verbs) return undefined;
  const kind = groupVersionKind(v.responseKind);
  const out: APISubresourceDiscovery = { subresource: v.subresource, ...(kind ? { responseKind: kind } : {}), verbs };
  const accepted = Array.isArray(v.acceptedTypes) ? v.acceptedTypes.map(groupVersionKind) : undefined;
  if (accepted && accepted.every(Boolean)) out.acceptedTypes = accepted as NonNullable<APISubresourceDiscovery['acceptedTypes']>;
  return out;
}

function resource(v: unknown): APIResourceDiscovery | undefined {
  if (!isObject(v) || !isName(v.resource)) return undefined;
  if (v.scope !== 'Cluster' && v.scope !== 'Namespaced') return undefined;
  const verbs = strings(v.verbs);
  if (!verbs) return undefined;
  const kind = groupVersionKind(v.responseKind);
  const out: APIResourceDiscovery = {
    resource: v.resource,
    ...(kind ? { responseKind: kind } : {}),
    scope: v.scope,
    singularResource: isString(v.singularResource) ? v.singularResource : '',
    verbs,
  };
  const shortNames = strings(v.shortNames);
  if (shortNames?.length) out.shortNames = shortNames;
  const categories = strings(v.categories);
  if (categories?.length) out.categories = categories;
  if (Array.isArray(v.subresources)) {
    const subresources = v.subresources.map(subresource).filter((s): s is APISubresourceDiscovery => !!s);
    if (subresources.length) out.subresources = subresources;
  }
  return out;
}

/** The well-formed resources of an extension's aggregated discovery, rebuilt field by field; the rest are dropped. */
export function sanitizeResources(list: unknown): APIResourceDiscovery[] {
  if (!Array.isArray(list)) return [];
  return list.map(resource).filter((r): r is APIResourceDiscovery => !!r);
}

/** An OpenAPI document (v2 or v3) with an object of paths, or undefined when it is not one. */
export function openAPIDocument(v: unknown): object | undefined {
  return isObject(v) && isObject(v.paths) ? v : undefined;
}
