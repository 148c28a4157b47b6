import type { UserInfo } from '../admission/types.js';
import type { AuthorizationAttributes } from './types.js';
import { queryFlag } from '../registry/list-options.js';

// kube's RequestInfoFactory configuration: API prefixes, the groupless one, and verbs spelled in the path.
const GROUPLESS_PREFIX = 'api';
const GROUPED_PREFIX = 'apis';
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
// Namespace subresources that are not resources nested in the namespace.
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * kube's authorization attributes of a request (RequestInfoFactory.NewRequestInfo): resource requests under
 * `/api/v1/...` and `/apis/<group>/<version>/...` get a verb from the method (get/list/watch, create, update, patch,
 * delete/deletecollection), namespace, resource, subresource and name; a list or watch selecting one name by
 * `fieldSelector=metadata.name=<name>` carries that name. Everything else (discovery, OpenAPI, health, version) is a
 * non-resource request with the path and the lowercased method as verb.
 */
export function requestAttributes(user: UserInfo, method: string, pathname: string, query: URLSearchParams): AuthorizationAttributes {
  const path = decode(pathname);
  const attrs: AuthorizationAttributes = {
    user,
    verb: method.toLowerCase(),
    resourceRequest: false,
    path,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
  };
  let parts = pathname.replace(/^\/+|\/+$/g, '').split('/').map(decode);
  if (parts.length < 3 || (parts[0] !== GROUPLESS_PREFIX && parts[0] !== GROUPED_PREFIX)) return attrs;
  const grouped = parts[0] === GROUPED_PREFIX;
  parts = parts.slice(1);
  if (grouped) {
    if (parts.length < 3) return attrs;
    attrs.apiGroup = parts[0];
    parts = parts.slice(1);
  }
  attrs.apiVersion = parts[0];
  parts = parts.slice(1);

  let verb: string;
  if (SPECIAL_VERBS.has(parts[0])) {
    // `/apis/apps/v1/watch/deployments`: kube errors without a resource after the verb; nothing is served there.
    if (parts.length < 2) return attrs;
    verb = parts[0];
    parts = parts.slice(1);
  } else {
    verb = METHOD_VERBS[method.toUpperCase()] ?? '';
  }
  attrs.resourceRequest = true;

  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      attrs.namespace = parts[1];
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
    }
  }
  // resource/name/subresource/anything-else-is-not-interpreted
  attrs.resource = parts[0] ?? '';
  attrs.name = parts[1] ?? '';
  if (parts.length >= 3 && verb !== 'proxy') attrs.subresource = parts[2];

  if (attrs.name === '' && verb === 'get') {
    verb = (queryFlag(query, 'watch') ?? false) ? 'watch' : 'list';
    const name = exactName(query.get('fieldSelector'));
    if (name !== undefined && validPathSegment(name)) attrs.name = name;
  }
  if (attrs.name === '' && verb === 'delete') verb = 'deletecollection';
  attrs.verb = verb;
  return attrs;
}

const METHOD_VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** The name a field selector requires exactly (`metadata.name=x` or `metadata.name==x` among its terms). */
function exactName(selector: string | null): string | undefined {
  if (!selector) return undefined;
  for (const term of selector.split(/(?<!\\),/)) {
    const match = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (match && !/^\s*metadata\.name\s*!=/.test(term)) return match[1].replace(/\\(.)/g, '$1');
  }
  return undefined;
}

/** kube's path.IsValidPathSegmentName. */
function validPathSegment(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
