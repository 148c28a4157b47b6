import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import type { KubeList, KubeObject } from '@kapi/apimachinery';
import type { Authorizer } from '../../auth/types.js';
import type { MetricSet } from '../../metrics/definitions.js';
import type { ResourceEntry, ResourceRegistry } from '../../registry/resources.js';
import type { RequestContext, Store } from '../../registry/store.js';
import { buildTable } from '../../table/table.js';
import { acceptsGzip, GZIP_THRESHOLD_BYTES } from '../compression.js';
import type { MediaType } from '../media/index.js';
import { withoutTypeMeta } from '../media/shared-json.js';
import { requestBodyFormat, type BodyFormat, type ResponseFormat } from '../negotiate.js';
import type { RequestInfo } from '../request-info.js';
import { render, response, warningHeader, type Rendered } from '../respond.js';
import { withLength } from '../response-end.js';
import { partialMetadataMessage, partialObjectMetadata, partialObjectMetadataList, type Transformed } from '../transform.js';

/** Server-wide settings the resource handlers follow (from the feature gates). */
export interface HandlerFeatures {
  /** The media types offered (application/cbor only with CBORServingAndStorage). */
  media: readonly MediaType[];
  /** APIResponseCompression: gzip large get and list responses for clients that accept it. */
  compression: boolean;
  /** AllowUnsafeMalformedObjectDeletion: honour ignoreStoreReadErrorWithClusterBreakingPotential. */
  unsafeDeletion: boolean;
  /** WatchList: streaming lists (`sendInitialEvents` on watches). */
  watchList: boolean;
}

/** The metrics a watch counts its events into. */
export type WatchMetrics = Pick<MetricSet, 'watchEvents' | 'watchEventSizes' | 'watchEncodings' | 'requestedDeprecatedApis'>;

/**
 * Everything a verb's handler needs about one request (k8s.io/apiserver's RequestScope plus the request): the
 * resource, the Store context, the negotiated response format, the query, and the body read once on demand.
 */
export interface RequestScope {
  request: Request;
  info: RequestInfo;
  entry: ResourceEntry;
  ctx: RequestContext;
  store: Store;
  query: URLSearchParams;
  /** The response representation negotiated from Accept. */
  format: ResponseFormat;
  pretty: boolean;
  features: HandlerFeatures;
  /** The authorizer chain, for permissions a request needs beyond its own verb (forced deletion). */
  authorizer?: Authorizer;
  metrics?: WatchMetrics;
  /** The served resources: field ownership of a kind served in several versions reaches the other versions here. */
  registry?: ResourceRegistry;
  /** The request body's bytes (read once). */
  body(): Promise<Uint8Array>;
  /** The request body's format, from Content-Type (415 when unsupported). */
  bodyFormat(): BodyFormat;
}

/** `readBody` reads the body under the server's limits; without it the Request's body is read whole. */
export function createScope(init: Omit<RequestScope, 'body' | 'bodyFormat' | 'pretty'>, readBody?: () => Promise<Uint8Array>): RequestScope {
  let body: Promise<Uint8Array> | undefined;
  const pretty = init.query.size > 0 ? init.query.get('pretty') : null;
  // Every field named (no spread): one object shape for every request.
  return {
    request: init.request,
    info: init.info,
    entry: init.entry,
    ctx: init.ctx,
    store: init.store,
    query: init.query,
    format: init.format,
    features: init.features,
    authorizer: init.authorizer,
    metrics: init.metrics,
    registry: init.registry,
    pretty: pretty === '1' || pretty === 'true',
    body: () => (body ??= readBody ? readBody() : init.request.arrayBuffer().then((b) => new Uint8Array(b))),
    bodyFormat: () => requestBodyFormat(init.request.headers.get('content-type'), init.features.media),
  };
}

/** The Protobuf message of the scope's kind (or its list). */
export const protobufOf = (scope: RequestScope, list = false) => ({
  codec: scope.entry.codec(),
  message: list ? scope.entry.info.protobuf.listMessage : scope.entry.info.protobuf.message,
});

/** A written object (or a list of them) in the negotiated format, with the strategy's and validation's warnings. */
export function reply(scope: RequestScope, obj: KubeObject, status: number, list = false): Response {
  const rendered = render(obj, scope.format, { pretty: scope.pretty, protobuf: protobufOf(scope, list) });
  return response(rendered, status, warningHeader(scope.ctx.warnings ?? []));
}

const gzipAsync = promisify(gzip);

/** Whether a get or list response is gzip-compressed: when allowed, asked for and large enough. */
function wantsGzip(scope: RequestScope, rendered: Rendered): boolean {
  return wantsGzipOf(scope, typeof rendered.body === 'string' ? Buffer.byteLength(rendered.body) : rendered.body.length);
}

const wantsGzipOf = (scope: RequestScope, size: number): boolean =>
  scope.features.compression && size > GZIP_THRESHOLD_BYTES && acceptsGzip(scope.request.headers.get('accept-encoding'));

/** A get or list response, gzip-compressed when wanted. */
export function replyRead(scope: RequestScope, rendered: Rendered): Response {
  if (!wantsGzip(scope, rendered)) return response(rendered, 200, { Vary: 'Accept-Encoding' });
  return response({ ...rendered, body: gzipSync(rendered.body) }, 200, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
}

/**
 * replyRead for a body in chunks (views of kept JSON among them): written one after the other, with its length,
 * without copying them into one buffer; gzipped (in one piece) when wanted.
 */
export function replyReadChunks(scope: RequestScope, chunks: readonly Uint8Array[], contentType: string): Response {
  const length = chunks.reduce((n, chunk) => n + chunk.length, 0);
  if (chunks.length <= 1 || wantsGzipOf(scope, length)) {
    return replyRead(scope, { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), contentType });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const headers = { 'Content-Type': contentType, 'Content-Length': String(length), Vary: 'Accept-Encoding' };
  return withLength(new Response(body, { status: 200, headers }), length);
}

/** replyRead for a big body: gzip runs on libuv's thread pool instead of the event loop. */
export async function replyReadAsync(scope: RequestScope, rendered: Rendered): Promise<Response> {
  if (!wantsGzip(scope, rendered)) return response(rendered, 200, { Vary: 'Accept-Encoding' });
  return response({ ...rendered, body: await gzipAsync(rendered.body) }, 200, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
}

/** Objects as a meta.k8s.io Table (`includeObject` from the query). */
export function tableOf(scope: RequestScope, objects: KubeObject[], listMeta?: Record<string, unknown>, noHeaders = false): KubeObject {
  return buildTable(scope.entry.info, objects, {
    includeObject: (scope.query.get('includeObject') as 'None' | 'Metadata' | 'Object' | null) ?? undefined,
    listMeta,
    noHeaders,
    printer: scope.entry.printer,
  }) as unknown as KubeObject;
}

/** One object as the negotiated conversion asks for it (kube's transformResponseObject). */
export function transformObject(scope: RequestScope, obj: KubeObject): Transformed {
  const as = scope.format.as;
  if (as?.kind === 'Table') return { value: tableOf(scope, [obj]) };
  if (as?.kind === 'PartialObjectMetadata') return { value: partialObjectMetadata(obj, as.version), protobuf: partialMetadataMessage(false) };
  return { value: obj, protobuf: protobufOf(scope) };
}

/**
 * Items as a list of the scope's kind carries them: kube's typed lists carry the kind once, on the list, not on each
 * item; unstructured lists (custom resources: kinds without a Protobuf message) keep it on every item.
 */
export const listItem = (scope: RequestScope): ((item: KubeObject) => KubeObject) => (typedList(scope) ? withoutTypeMeta : (item) => item);

/** Whether the scope's kind has typed lists (a Protobuf message): their items carry no kind and apiVersion. */
export const typedList = (scope: RequestScope): boolean => Boolean(scope.entry.info.protobuf.message);


/** A list as the negotiated conversion asks for it. */
export function transformList(scope: RequestScope, list: KubeList): Transformed {
  const as = scope.format.as;
  if (as?.kind === 'Table') return { value: tableOf(scope, list.items, list.metadata as Record<string, unknown>) };
  if (as?.kind === 'PartialObjectMetadataList') return { value: partialObjectMetadataList(list, as.version), protobuf: partialMetadataMessage(true) };
  return { value: { ...list, items: list.items.map(listItem(scope)) } as unknown as KubeObject, protobuf: protobufOf(scope, true) };
}

/**
 * The options of a create, update or patch as kube decodes them from the query, for admission (a webhook's
 * `request.options`): `fieldManager` and `fieldValidation` when given.
 */
export function writeOptions(query: URLSearchParams): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const key of ['fieldManager', 'fieldValidation']) {
    const value = query.get(key);
    if (value) options[key] = value;
  }
  return options;
}
