import { newBadRequest, newMethodNotSupported, newPathNotFound } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import type { Authorizer } from '../auth/types.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import type { RequestContext, Store } from '../registry/store.js';
import type { RequestDeadline } from '../registry/context.js';
import { subresourceUpdate } from '../registry/rest.js';
import { createHandler } from './handlers/create.js';
import { deleteCollectionHandler } from './handlers/delete-collection.js';
import { deleteHandler } from './handlers/delete.js';
import { getHandler } from './handlers/get.js';
import { listHandler } from './handlers/list.js';
import { patchHandler } from './handlers/patch.js';
import { createScope, type HandlerFeatures, type RequestScope, type WatchMetrics } from './handlers/scope.js';
import { updateHandler } from './handlers/update.js';
import { watchHandler } from './handlers/watch.js';
import type { MediaType } from './media/index.js';
import { warningHeader } from './respond.js';
import { negotiateResponse, type BodyFormat, type ResponseFormat } from './negotiate.js';
import type { RequestInfo } from './request-info.js';

export type { HandlerFeatures, RequestScope } from './handlers/scope.js';

/** A subresource served by its own handler (scale, eviction, the access reviews...). */
export type SubresourceHandler = (args: {
  request: Request;
  info: RequestInfo;
  ctx: RequestContext;
  format: ResponseFormat;
  query: URLSearchParams;
  body: () => Promise<Uint8Array>;
  /** The request body's format, from Content-Type among the offered media types (415 otherwise). */
  bodyFormat: () => BodyFormat;
}) => Promise<Response>;

export interface ResourceHandlerDeps extends HandlerFeatures {
  /** The media types offered, as offeredMediaTypes() lists them for the server's feature gates. */
  media: readonly MediaType[];
  registry: ResourceRegistry;
  store: Store;
  /** Handlers by {@link specialKey}: `apps/deployments/scale`, `/pods/eviction`, or `<group>/<resource>` for virtual resources. */
  special: Record<string, SubresourceHandler>;
  /**
   * Stores of computed resources by {@link specialKey} (`<group>/<resource>`): their get and list read these
   * instead of storage (PluginHost.addComputedResource).
   */
  computed?: Record<string, Store>;
  /** The scale subresource of every resource whose info declares one (no handler of its own in `special`). */
  scale?: SubresourceHandler;
  /** Who a request runs as when the caller passes no user (the server passes the authenticated one). */
  anonymousUser: UserInfo;
  /** The authorizer chain, for permissions a request needs beyond its own verb (forced deletion). */
  authorizer?: Authorizer;
  /** Where watches count the events they send (apiserver_watch_events_total and _sizes) and deprecated APIs are marked requested. */
  metrics?: WatchMetrics;
}

/** The key of a subresource's handler: `<group>/<resource>/<subresource>`, `<group>/<resource>` for a virtual resource. */
export const specialKey = (group: string, resource: string, subresource: string): string =>
  subresource ? `${group}/${resource}/${subresource}` : `${group}/${resource}`;

/** One handler per verb, each over the same request scope (k8s.io/apiserver endpoints/handlers). */
const HANDLERS: Record<string, (scope: RequestScope) => Promise<Response>> = {
  get: getHandler,
  list: listHandler,
  watch: watchHandler,
  create: createHandler,
  update: updateHandler,
  patch: patchHandler,
  delete: deleteHandler,
  deletecollection: deleteCollectionHandler,
};

/** The verbs a subresource takes: status and scale are read and written; others declare theirs. */
function subresourceVerbs(entry: ResourceEntry, subresource: string): string[] | undefined {
  const sub = entry.info.subresources;
  if (subresource === 'status' && sub.status) return ['get', 'update', 'patch'];
  if (subresource === 'scale' && sub.scale) return ['get', 'update', 'patch'];
  if (subresource === 'finalize' && entry.info.kind === 'Namespace' && !entry.info.group) return ['update'];
  return sub.others?.find((o) => o.name === subresource)?.verbs;
}

function parseDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  for (const v of values) if (v !== '' && v !== 'All') throw newBadRequest(`Invalid dryRun value "${v}": supported values are "All"`);
  return values.includes('All');
}

/**
 * Serves one resource request: finds the resource, checks that the path shape and verb fit it, builds the
 * request scope, and hands it to the verb's handler (or to a subresource's own handler). `user` is who the
 * request runs as, already authenticated and authorized.
 */
export function createResourceHandler(deps: ResourceHandlerDeps) {
  const { registry, store } = deps;
  const features: HandlerFeatures = { media: deps.media, compression: deps.compression, unsafeDeletion: deps.unsafeDeletion, watchList: deps.watchList };
  // Kinds without a Protobuf message (custom resources) are not offered in it: 406 and 415, as kube answers.
  const withoutProtobuf: HandlerFeatures = { ...features, media: deps.media.filter((m) => m.name !== 'protobuf') };

  /**
   * `readBody` reads the request body under the server's limits (default: the whole of `request.body`); `query` is
   * the request's query when the caller has already parsed its URL.
   */
  return async function handle(
    request: Request,
    info: RequestInfo,
    user: UserInfo = deps.anonymousUser,
    deadline?: RequestDeadline,
    readBody?: () => Promise<Uint8Array>,
    query: URLSearchParams = new URL(request.url).searchParams,
  ): Promise<Response> {
    const entry = registry.lookup(info.group, info.version, info.resource);
    if (!entry) throw newPathNotFound();
    const namespaced = entry.info.scope === 'Namespaced';
    const gr = { group: entry.info.group, resource: entry.info.plural };

    if (!namespaced && info.namespace && !(entry.info.kind === 'Namespace' && !entry.info.group)) throw newPathNotFound();
    if (namespaced && !info.namespace && !['list', 'watch'].includes(info.verb)) throw newPathNotFound();

    const verbs = info.subresource ? subresourceVerbs(entry, info.subresource) : entry.info.verbs;
    if (!verbs) throw newPathNotFound();
    if (!verbs.includes(info.verb)) throw newMethodNotSupported(gr, info.verb);
    // POST goes to a collection; on an object only to a subresource (pods/NAME/eviction).
    if (info.verb === 'create' && info.name && !info.subresource) throw newMethodNotSupported(gr, 'POST');

    const readVerb = info.verb === 'get' || info.verb === 'list' || info.verb === 'watch';
    const ctx: RequestContext = {
      entry,
      namespace: namespaced ? info.namespace : '',
      user,
      // Reads take no dryRun (kube's GetOptions and ListOptions have none, so the parameter is ignored there).
      dryRun: readVerb ? false : parseDryRun(query),
      subresource: info.subresource,
      warnings: [],
      deadline,
    };
    const metadata = !info.subresource && readVerb ? (info.verb === 'list' ? 'list' : 'object') : undefined;
    const served = entry.info.protobuf.message ? features : withoutProtobuf;
    const format = negotiateResponse(request.headers.get('accept'), served.media, { table: readVerb, metadata });
    const computed = info.subresource ? undefined : deps.computed?.[specialKey(info.group, info.resource, '')];
    const scope = createScope({ request, info, entry, ctx, store: computed ?? store, query, format, features: served, authorizer: deps.authorizer, metrics: deps.metrics, registry }, readBody);
    const special =
      deps.special[specialKey(info.group, info.resource, info.subresource)] ??
      (info.subresource === 'scale' && entry.info.subresources.scale ? deps.scale : undefined);
    if (special) return special({ request, info, ctx, format, query, body: scope.body, bodyFormat: scope.bodyFormat });
    // Subresources that need a node or a proxy (log, exec, attach, portforward, proxy, binding, ...) have no
    // implementation here: say so rather than answering with the parent object.
    const storedPart = info.subresource === 'status' || info.subresource === 'finalize' || !!subresourceUpdate(entry, info.subresource);
    if (info.subresource && !storedPart) throw newPathNotFound();
    const handler = HANDLERS[info.verb];
    if (!handler) throw newMethodNotSupported(gr, info.verb);
    const res = await handler(scope);
    // A deprecated version says so on every answer, as kube's deprecation filter does.
    if (entry.info.deprecationWarning) {
      res.headers.append('Warning', warningHeader([entry.info.deprecationWarning]).Warning);
      deps.metrics?.requestedDeprecatedApis.set({ group: info.group, version: info.version, resource: info.resource, subresource: info.subresource, removed_release: entry.info.removedRelease ?? '' }, 1);
    }
    return res;
  };
}
