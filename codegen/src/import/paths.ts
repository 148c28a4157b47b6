import type { GroupVersionKind, SwaggerDocument, SwaggerOperation } from './types.js';

/** One operation of swagger `paths`, taken apart into the REST coordinates Kapi needs. */
export interface RestOperation {
  /** Group and version of the URL prefix (`/api/v1` is `""`/`v1`). */
  group: string;
  version: string;
  namespaced: boolean;
  resource: string;
  /** Segment after `{name}` (`status`, `scale`, `exec`, ...). */
  subresource?: string;
  method: string;
  verb?: string;
  gvk?: GroupVersionKind;
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options']);

/** Kube verbs of `x-kubernetes-action` values. */
const ACTION_VERBS: Record<string, string> = {
  get: 'get',
  list: 'list',
  watch: 'watch',
  watchlist: 'watch',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
};

/** Connect operations (exec, proxy, ...) are verbs by HTTP method, as kube's discovery lists them. */
const METHOD_VERBS: Record<string, string> = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };

function verbOf(action: string | undefined, method: string): string | undefined {
  if (action === 'connect') return METHOD_VERBS[method];
  return action === undefined ? undefined : ACTION_VERBS[action];
}

/** Parses `/api/v1/namespaces/{namespace}/pods/{name}/status` and friends; undefined for other paths. */
export function parsePath(path: string): Omit<RestOperation, 'method' | 'verb' | 'gvk'> | undefined {
  let group: string;
  let version: string;
  let rest: string[];
  const core = /^\/api\/(v[^/]+)\/(.+)$/.exec(path);
  const named = /^\/apis\/([^/]+)\/(v[^/]+)\/(.+)$/.exec(path);
  if (core) [group, version, rest] = ['', core[1], core[2].split('/')];
  else if (named) [group, version, rest] = [named[1], named[2], named[3].split('/')];
  else return undefined;
  if (rest[0] === 'watch') rest = rest.slice(1);
  let namespaced = false;
  if (rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length > 2) {
    namespaced = true;
    rest = rest.slice(2);
  }
  const [resource, name, subresource, tail, ...more] = rest;
  if (!resource || resource.startsWith('{') || more.length) return undefined;
  if (name !== undefined && name !== '{name}') return undefined;
  if (tail !== undefined && tail !== '{path}') return undefined;
  return { group, version, namespaced, resource, ...(subresource ? { subresource } : {}) };
}

/** Every resource operation in the document, in a stable order. */
export function restOperations(swagger: SwaggerDocument): RestOperation[] {
  const ops: RestOperation[] = [];
  for (const path of Object.keys(swagger.paths).sort()) {
    const parsed = parsePath(path);
    if (!parsed) continue;
    const item = swagger.paths[path];
    for (const method of Object.keys(item).sort()) {
      if (!METHODS.has(method)) continue;
      const op = item[method] as SwaggerOperation;
      ops.push({
        ...parsed,
        method,
        verb: verbOf(op['x-kubernetes-action'], method),
        gvk: op['x-kubernetes-group-version-kind'],
      });
    }
  }
  return ops;
}
