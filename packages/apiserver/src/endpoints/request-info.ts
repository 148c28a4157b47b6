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
  const parts = pathname.split('/').filter((p) => p !== '');
  // Only a path with an escape needs decoding (decodeURIComponent of anything else is the same string).
  if (pathname.includes('%')) for (let j = 0; j < parts.length; j++) parts[j] = decodeSegment(parts[j]);
  const grouped = parts[0] === 'apis';
  if (!(grouped ? parts.length >= 4 : parts[0] === 'api' && parts.length >= 3)) return undefined;
  const group = grouped ? parts[1] : '';
  const version = grouped ? parts[2] : parts[1];
  // Where the rest (namespace, resource, name, subresource) begins in `parts`.
  let i = grouped ? 3 : 2;
  let namespace = '';
  if (parts[i] === 'namespaces' && parts.length - i > 1) {
    namespace = parts[i + 1];
    if (parts.length - i > 2 && !NAMESPACE_SUBRESOURCES.has(parts[i + 2])) i += 2;
  }
  if (parts.length - i > 3) return undefined;
  const resource = parts[i];
  const name = parts[i + 1] ?? '';
  const subresource = parts[i + 2] ?? '';
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
