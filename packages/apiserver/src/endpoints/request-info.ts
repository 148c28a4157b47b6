import { newBadRequest } from '@kapi/apimachinery';
import { queryFlag } from '../registry/list-options.js';

/** What a resource request is about, read off its method, path and query (kube's RequestInfoFactory). */
export interface RequestInfo {
  verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  group: string;
  version: string;
  /** Namespace from the path ('' when none). */
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

// Namespace subresources that are not resources nested in the namespace.
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** A percent-decoded path segment; a malformed escape (`%zz`) is 400, as Go's URL parsing answers it. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw newBadRequest(`invalid URL escape in ${JSON.stringify(segment)}`);
  }
}

/**
 * Parses `/api/v1/...` and `/apis/GROUP/VERSION/...` paths. Returns undefined for anything that is not a request
 * for a resource (discovery documents, unknown prefixes).
 */
export function parseRequestInfo(method: string, pathname: string, query: URLSearchParams): RequestInfo | undefined {
  const parts = pathname.split('/').filter((p) => p !== '').map(decodeSegment);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    [group, version, rest] = ['', parts[1], parts.slice(2)];
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  } else {
    return undefined;
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) rest = rest.slice(2);
  }
  const [resource, name = '', subresource = '', ...extra] = rest;
  if (extra.length) return undefined;
  const isCollection = name === '';
  const watch = queryFlag(query, 'watch') ?? false;
  let verb: RequestInfo['verb'];
  switch (method) {
    case 'GET':
    case 'HEAD':
      verb = isCollection ? (watch ? 'watch' : 'list') : watch ? 'watch' : 'get';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = isCollection ? 'deletecollection' : 'delete';
      break;
    default:
      return undefined;
  }
  return { verb, group, version, namespace, resource, subresource, name };
}
