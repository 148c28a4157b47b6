import { gzipSync } from 'node:zlib';
import {
  fieldNotSupported,
  newBadRequest,
  newMethodNotSupported,
  applyDefaults,
  newInvalid,
  newNotFound,
  newPathNotFound,
  decodeProtobufObject,
  type FieldError,
  type KubeList,
  type KubeObject,
} from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import { deleteObject, unsafeDeleteCorrupt, type DeleteOptions } from '../registry/delete.js';
import { requestAttributes } from '../auth/attributes.js';
import { forbiddenError } from '../auth/forbidden.js';
import type { Authorizer } from '../auth/types.js';
import { getObject, listObjects, parseListOptions } from '../registry/list.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import type { RequestContext, Store } from '../registry/store.js';
import { buildTable } from '../table/table.js';
import { decodeLoose, decodeObjectWithDuplicates } from './decode.js';
import { checkFields, parseFieldValidation } from './field-validation.js';
import { applyConfiguration, fieldManagerOf, trackWrite } from './managed-fields.js';
import { negotiateResponse, requestBodyFormat, type ResponseFormat } from './negotiate.js';
import { applyPatch, patchTypeOf } from './patch.js';
import type { RequestInfo } from './request-info.js';
import { metaCodec, render, response, STATUS_MESSAGE, warningHeader, type Rendered } from './respond.js';
import { createWatchEncoder } from './watch-framing.js';
import { startWatch } from './watch.js';

/** A subresource served by its own handler (scale, eviction, the access reviews...). */
export type SubresourceHandler = (args: {
  request: Request;
  info: RequestInfo;
  ctx: RequestContext;
  format: ResponseFormat;
  query: URLSearchParams;
  body: () => Promise<Uint8Array>;
}) => Promise<Response>;

export interface ResourceHandlerDeps {
  registry: ResourceRegistry;
  store: Store;
  /** Handlers by `<resource>/<subresource>` (`deployments/scale`), or `<resource>` for virtual resources. */
  special: Record<string, SubresourceHandler>;
  /** Who a request runs as when the caller passes no user (the server passes the authenticated one). */
  anonymousUser: UserInfo;
  /** CBORServingAndStorage: offer application/cbor. */
  cbor: boolean;
  /** APIResponseCompression: gzip large get and list responses for clients that accept it. */
  compression: boolean;
  /** AllowUnsafeMalformedObjectDeletion: honour ignoreStoreReadErrorWithClusterBreakingPotential. */
  unsafeDeletion: boolean;
  /** WatchList: streaming lists (`sendInitialEvents` on watches). */
  watchList: boolean;
  /** The authorizer chain, for permissions a request needs beyond its own verb (forced deletion). */
  authorizer?: Authorizer;
}

/** kube compresses responses from this size up (defaultGzipThresholdBytes). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

const NOT_FOUND_PATH = newPathNotFound;

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

async function readBody(request: Request): Promise<Uint8Array> {
  return new Uint8Array(await request.arrayBuffer());
}

/**
 * Serves one resource request (the main resource and its status subresource); others go to `special`. `user` is
 * who the request runs as, already authenticated and authorized.
 */
export function createResourceHandler(deps: ResourceHandlerDeps) {
  const { registry, store } = deps;

  return async function handle(request: Request, info: RequestInfo, user: UserInfo = deps.anonymousUser): Promise<Response> {
    const entry = registry.lookup(info.group, info.version, info.resource);
    if (!entry) throw NOT_FOUND_PATH();
    const url = new URL(request.url);
    const query = url.searchParams;
    const namespaced = entry.info.scope === 'Namespaced';
    const gr = { group: entry.info.group, resource: entry.info.plural };

    if (!namespaced && info.namespace && !(entry.info.kind === 'Namespace' && !entry.info.group)) throw NOT_FOUND_PATH();
    if (namespaced && !info.namespace && !['list', 'watch'].includes(info.verb)) throw NOT_FOUND_PATH();

    const verbs = info.subresource ? subresourceVerbs(entry, info.subresource) : entry.info.verbs;
    if (!verbs) throw NOT_FOUND_PATH();
    if (!verbs.includes(info.verb)) throw newMethodNotSupported(gr, info.verb);
    // POST goes to a collection; on an object only to a subresource (pods/NAME/eviction).
    if (info.verb === 'create' && info.name && !info.subresource) throw newMethodNotSupported(gr, 'POST');

    const ctx: RequestContext = {
      entry,
      namespace: namespaced ? info.namespace : '',
      user,
      dryRun: parseDryRun(query),
      subresource: info.subresource,
    };
    const readVerb = info.verb === 'get' || info.verb === 'list' || info.verb === 'watch';
    const format = negotiateResponse(request.headers.get('accept'), { table: readVerb, protobuf: true, cbor: deps.cbor });
    const bodyFormat = () => requestBodyFormat(request.headers.get('content-type'), { cbor: deps.cbor });
    const special = deps.special[info.subresource ? `${info.resource}/${info.subresource}` : info.resource];
    if (special) return special({ request, info, ctx, format, query, body: () => readBody(request) });
    // Subresources that need a node or a proxy (log, exec, attach, portforward, proxy, binding, ...) have no
    // implementation here: say so rather than answering with the parent object.
    if (info.subresource && info.subresource !== 'status' && info.subresource !== 'finalize') throw NOT_FOUND_PATH();

    const pretty = ['1', 'true'].includes(query.get('pretty') ?? '');
    const proto = (list: boolean) => ({
      codec: entry.codec(),
      message: list ? entry.info.protobuf.listMessage : entry.info.protobuf.message,
    });
    const warnings: string[] = [];
    const reply = (obj: KubeObject, status: number) =>
      response(render(obj, format, { pretty, protobuf: proto(false) }), status, warningHeader(warnings));
    const gzip = deps.compression && acceptsGzip(request.headers.get('accept-encoding'));
    /** A get or list response: gzip-compressed when allowed, asked for and large enough. */
    const read = (rendered: Rendered) => {
      const size = typeof rendered.body === 'string' ? Buffer.byteLength(rendered.body) : rendered.body.length;
      if (!gzip || size < GZIP_THRESHOLD_BYTES) return response(rendered, 200, { Vary: 'Accept-Encoding' });
      return response({ ...rendered, body: gzipSync(rendered.body) }, 200, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
    };
    const tableOf = (objects: KubeObject[], listMeta?: Record<string, unknown>, noHeaders = false) =>
      buildTable(entry.info, objects, {
        includeObject: (query.get('includeObject') as 'None' | 'Metadata' | 'Object' | null) ?? undefined,
        listMeta,
        noHeaders,
      }) as unknown as KubeObject;

    switch (info.verb) {
      case 'get': {
        const obj = await getObject(store, ctx, info.name, query.get('resourceVersion') ?? '');
        if (format.kind === 'table') return read(render(tableOf([obj]), { kind: 'json' }, { pretty }));
        return read(render(obj, format, { pretty, protobuf: proto(false) }));
      }
      case 'list': {
        const list: KubeList = await listObjects(store, ctx, parseListOptions(entry, query));
        if (format.kind === 'table') {
          return read(render(tableOf(list.items, list.metadata as Record<string, unknown>), { kind: 'json' }, { pretty }));
        }
        return read(render(list as unknown as KubeObject, format, { pretty, protobuf: proto(true) }));
      }
      case 'watch': {
        const encoder = createWatchEncoder(format.kind === 'table' ? { kind: 'json' } : format, entry);
        const stream = await startWatch(store, {
          encoder,
          ctx,
          options: parseListOptions(entry, query),
          name: info.name || undefined,
          signal: request.signal,
          watchList: deps.watchList,
          renderTable: format.kind === 'table' ? (obj, first) => tableOf([obj], undefined, !first) : undefined,
        });
        return new Response(stream, {
          status: 200,
          headers: { 'Content-Type': encoder.contentType, 'Cache-Control': 'no-cache, private' },
        });
      }
      case 'create': {
        const level = parseFieldValidation(query);
        const manager = fieldManagerOf(query, request.headers.get('user-agent'), { apply: false, optionsKind: 'CreateOptions' });
        const { obj, duplicates } = decodeObjectWithDuplicates(entry, bodyFormat(), await readBody(request));
        checkFields(entry, obj, level, warnings, duplicates);
        trackWrite(entry, '', manager, undefined, obj);
        return reply(await store.create(ctx, obj), 201);
      }
      case 'update': {
        const level = parseFieldValidation(query);
        const manager = fieldManagerOf(query, request.headers.get('user-agent'), { apply: false, optionsKind: 'UpdateOptions' });
        const { obj, duplicates } = decodeObjectWithDuplicates(entry, bodyFormat(), await readBody(request));
        checkFields(entry, obj, level, warnings, duplicates);
        const result = await store.update(ctx, info.name, (current) => {
          const next = structuredClone(obj);
          trackWrite(entry, info.subresource, manager, current, next);
          return next;
        });
        return reply(result.obj, result.created ? 201 : 200);
      }
      case 'patch': {
        const level = parseFieldValidation(query);
        const type = patchTypeOf(request.headers.get('content-type'), { strategic: !!entry.group.strategicMergePatch, cbor: deps.cbor });
        const apply = type === 'apply' || type === 'apply-cbor';
        const force = parseForce(query, apply);
        const manager = fieldManagerOf(query, request.headers.get('user-agent'), { apply, optionsKind: 'PatchOptions' });
        const raw = await readBody(request);
        if (apply) {
          const applied = decodeLoose(type === 'apply-cbor' ? 'cbor' : 'yaml', raw) as KubeObject;
          if (!applied || typeof applied !== 'object' || Array.isArray(applied)) throw newBadRequest('the apply configuration must be an object');
          checkFields(entry, applied, level, warnings, [], { defaults: false });
          const result = await store.update(ctx, info.name, (current) => {
            const merged = applyConfiguration(entry, info.subresource, current, applied, manager, force);
            applyDefaults(entry.group.fieldTree, entry.typeKey, merged);
            return merged;
          }, { allowCreate: info.subresource === '' });
          return reply(result.obj, result.created ? 201 : 200);
        }
        const patch = decodeLoose('json', raw);
        const gk = { group: entry.info.group, kind: entry.info.kind };
        const result = await store.update(ctx, info.name, (current) => {
          if (!current) throw newNotFound(gr, info.name);
          const patched = applyPatch(type, current, patch, gk, info.name, entry.info.patchMeta);
          checkFields(entry, patched, level, warnings);
          trackWrite(entry, info.subresource, manager, current, patched);
          return patched;
        }, { allowCreate: false });
        return reply(result.obj, 200);
      }
      case 'delete': {
        const options = deleteOptionsOf(query, decodeDeleteOptions(bodyFormat(), await readBody(request)));
        if (options.ignoreStoreReadErrorWithClusterBreakingPotential) {
          // A forced deletion needs `unsafe-delete-ignore-read-errors` on the resource besides `delete`.
          if (deps.authorizer) {
            const url = new URL(request.url);
            const attributes = { ...requestAttributes(user, 'DELETE', url.pathname, url.searchParams), verb: 'unsafe-delete-ignore-read-errors' };
            const decision = await deps.authorizer.authorize(attributes);
            if (decision.decision !== 'allow') throw forbiddenError(attributes, decision.reason);
          }
          await unsafeDeleteCorrupt(store, ctx, info.name, options, deps.unsafeDeletion);
          return response(render(successStatus(entry, { metadata: { name: info.name } }), format, { protobuf: { codec: metaCodec(), message: STATUS_MESSAGE } }), 200);
        }
        const result = await deleteObject(store, { ...ctx, dryRun: ctx.dryRun || options.dryRun }, info.name, options);
        if (!result.removed || entry.strategy.returnDeletedObject) return reply(result.obj, 200);
        return response(render(successStatus(entry, result.obj), format, { protobuf: { codec: metaCodec(), message: STATUS_MESSAGE } }), 200);
      }
      case 'deletecollection': {
        const options = deleteOptionsOf(query, decodeDeleteOptions(bodyFormat(), await readBody(request)));
        if (options.dryRun) ctx.dryRun = true;
        const list = await listObjects(store, ctx, { ...parseListOptions(entry, query), limit: 0 });
        const deleted: KubeObject[] = [];
        for (const item of list.items) {
          const itemCtx = { ...ctx, namespace: String((item.metadata as { namespace?: string }).namespace ?? '') };
          try {
            deleted.push((await deleteObject(store, itemCtx, String((item.metadata as { name: string }).name), options)).obj);
          } catch (err) {
            if ((err as { status?: { code?: number } }).status?.code !== 404) throw err;
          }
        }
        return response(render({ ...list, items: deleted } as unknown as KubeObject, format, { pretty, protobuf: proto(true) }), 200);
      }
    }
  };
}

/** `force` (apply only): `true` or `false`; on another patch it is 422 as kube answers it. */
function parseForce(query: URLSearchParams, apply: boolean): boolean {
  const value = query.get('force');
  if (value === null || value === '') return false;
  if (!apply) {
    throw newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [
      { type: 'FieldValueForbidden', field: 'force', message: 'may not be specified for non-apply patch' },
    ]);
  }
  return value === 'true' || value === '1';
}

/** Whether Accept-Encoding admits gzip (`gzip`, `gzip;q=0.5`, `*`), and not with q=0. */
function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (!q || Number(q.slice(2)) > 0);
  });
}

/** A DELETE body (DeleteOptions) in any of the request formats. */
function decodeDeleteOptions(format: ReturnType<typeof requestBodyFormat>, body: Uint8Array): unknown {
  if (format === 'protobuf') {
    return body.length ? decodeProtobufObject(metaCodec(), 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions', body) : undefined;
  }
  return decodeLoose(format, body);
}

const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'];

/**
 * DeleteOptions from the body and the query (gracePeriodSeconds, propagationPolicy, orphanDependents, dryRun),
 * validated as kube's ValidateDeleteOptions does (422 Invalid DeleteOptions).
 */
function deleteOptionsOf(query: URLSearchParams, body: unknown): DeleteOptions & { dryRun: boolean; dryRunGiven?: boolean } {
  const fromBody = (body && typeof body === 'object' ? body : {}) as DeleteOptions & { orphanDependents?: boolean; dryRun?: string[] };
  const options = { ...fromBody, dryRun: false } as DeleteOptions & { dryRun: boolean; dryRunGiven?: boolean };
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) options.gracePeriodSeconds = Number(grace);
  const policy = query.get('propagationPolicy');
  if (policy) options.propagationPolicy = policy;
  const unsafe = query.get('ignoreStoreReadErrorWithClusterBreakingPotential');
  if (unsafe !== null) options.ignoreStoreReadErrorWithClusterBreakingPotential = unsafe === 'true';
  const orphan = query.get('orphanDependents');
  if (orphan !== null) options.orphanDependents = orphan === 'true';
  const errs: FieldError[] = [];
  if (options.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(options.propagationPolicy)) {
    errs.push(fieldNotSupported('propagationPolicy', options.propagationPolicy, PROPAGATION_POLICIES));
  }
  if (options.propagationPolicy !== undefined && options.orphanDependents !== undefined) {
    errs.push({
      type: 'FieldValueInvalid', field: 'propagationPolicy', badValue: options.propagationPolicy,
      message: 'orphanDependents and deletionPropagation cannot be both set',
    });
  }
  if (options.gracePeriodSeconds !== undefined && !Number.isInteger(options.gracePeriodSeconds)) {
    errs.push({ type: 'FieldValueInvalid', field: 'gracePeriodSeconds', badValue: options.gracePeriodSeconds, message: 'must be an integer' });
  }
  for (const v of fromBody.dryRun ?? []) {
    if (v !== 'All') errs.push(fieldNotSupported('dryRun', v, ['All']));
  }
  if (errs.length) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  options.dryRun = (fromBody.dryRun ?? []).includes('All');
  options.dryRunGiven = (fromBody.dryRun ?? []).length > 0 || query.getAll('dryRun').length > 0;
  return options;
}

/** kube's answer to a completed delete for kinds that do not return the object. */
function successStatus(entry: ResourceEntry, obj: KubeObject): KubeObject {
  const meta = obj.metadata as { name?: string; uid?: string };
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: meta.name, group: entry.info.group || undefined, kind: entry.info.plural, uid: meta.uid },
  };
}
