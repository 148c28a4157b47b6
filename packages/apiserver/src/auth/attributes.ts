import type { UserInfo } from '../admission/types.js';
import type { AuthorizationAttributes } from './types.js';
import { queryFlag } from '../registry/list-options.js';
import type { RequestInfo } from '../endpoints/request-info.js';

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
export function requestAttributes(user: UserInfo, method: string, pathname: string, query: URLSearchParams, info?: RequestInfo): AuthorizationAttributes {
  const known = info && attributesOfInfo(user, method, pathname, query, info);
  if (known) return known;
  // Only a path with an escape needs decoding (decodeURIComponent of anything else is the same string).
  const escaped = pathname.includes('%');
  const attrs: AuthorizationAttributes = {
    user,
    verb: method.toLowerCase(),
    resourceRequest: false,
    path: escaped ? decode(pathname) : pathname,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
  };
  // The segments between the outer slashes (empty ones inside kept), each decoded on its own; read by index.
  const parts = pathname.replace(/^\/+|\/+$/g, '').split('/');
  if (escaped) for (let j = 0; j < parts.length; j++) parts[j] = decode(parts[j]);
  if (parts.length < 3 || (parts[0] !== GROUPLESS_PREFIX && parts[0] !== GROUPED_PREFIX)) return attrs;
  let i = 1;
  if (parts[0] === GROUPED_PREFIX) {
    if (parts.length - i < 3) return attrs;
    attrs.apiGroup = parts[i++];
  }
  attrs.apiVersion = parts[i++];

  let verb: string;
  if (SPECIAL_VERBS.has(parts[i])) {
    // `/apis/apps/v1/watch/deployments`: kube errors without a resource after the verb; nothing is served there.
    if (parts.length - i < 2) return attrs;
    verb = parts[i++];
  } else {
    verb = METHOD_VERBS[method.toUpperCase()] ?? '';
  }
  attrs.resourceRequest = true;

  if (parts[i] === 'namespaces' && parts.length - i > 1) {
    attrs.namespace = parts[i + 1];
    if (parts.length - i > 2 && !NAMESPACE_SUBRESOURCES.has(parts[i + 2])) i += 2;
  }
  // resource/name/subresource/anything-else-is-not-interpreted
  attrs.resource = parts[i] ?? '';
  attrs.name = parts[i + 1] ?? '';
  if (parts.length - i >= 3 && verb !== 'proxy') attrs.subresource = parts[i + 2];

  return withCollectionVerb(attrs, verb, query);
}

/** kube's last step: a get or delete without a name is a list or watch (by `?watch`), or a deletecollection. */
function withCollectionVerb(attrs: AuthorizationAttributes, verb: string, query: URLSearchParams): AuthorizationAttributes {
  if (attrs.name === '' && verb === 'get') {
    verb = (queryFlag(query, 'watch') ?? false) ? 'watch' : 'list';
    const name = exactName(query.get('fieldSelector'));
    if (name !== undefined && validPathSegment(name)) attrs.name = name;
  }
  if (attrs.name === '' && verb === 'delete') verb = 'deletecollection';
  attrs.verb = verb;
  return attrs;
}

/**
 * The attributes of a resource request from its RequestInfo, parsed already, rather than from the path again: the
 * same as the full parse gives, for a plain path only (no escape, no empty segment, no trailing slash, not the
 * legacy `/watch/` and `/proxy/` prefixes), where both read the same segments. Undefined for any other path.
 */
function attributesOfInfo(user: UserInfo, method: string, pathname: string, query: URLSearchParams, info: RequestInfo): AuthorizationAttributes | undefined {
  if (pathname.includes('%') || pathname.includes('//') || pathname.endsWith('/')) return undefined;
  if (!info.namespace && SPECIAL_VERBS.has(info.resource)) return undefined;
  const attrs: AuthorizationAttributes = {
    user,
    verb: '',
    resourceRequest: true,
    path: pathname,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
  return withCollectionVerb(attrs, METHOD_VERBS[method.toUpperCase()] ?? '', query);
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
