import { encodeEnvelope, type KubeObject } from '@kapi/apimachinery';
import { parseListOptions } from '../../registry/list-options.js';
import { acceptsGzip } from '../compression.js';
import { encodeCborListInSlices, encodeProtobufListInSlices, jsonListChunks, STREAM_LIST_ITEMS, streamJsonList, streamYamlList } from '../list-stream.js';
import { CBOR_TYPE } from '../media/cbor-codec.js';
import { YAML_TYPE } from '../media/yaml.js';
import { render } from '../respond.js';
import { replyRead, replyReadAsync, replyReadChunks, listItem, transformList, typedList, type RequestScope } from './scope.js';

/** GET of a collection (kube's ListResource), as a list or converted as negotiated (Table, PartialObjectMetadataList). */
export async function listHandler(scope: RequestScope): Promise<Response> {
  const list = await scope.store.list(scope.ctx, parseListOptions(scope.entry, scope.query));
  const kind = scope.format.kind;
  const plain = (kind === 'json' || kind === 'yaml') && !scope.format.as && !scope.pretty;
  const items = list as unknown as KubeObject & { items: unknown[] };
  if (plain && list.items.length > STREAM_LIST_ITEMS) {
    // A big list is written in slices (typed lists' items without their kind), so encoding it does not hold up
    // other requests (and it is big: gzip when the client takes it).
    const gzip = scope.features.compression && acceptsGzip(scope.request.headers.get('accept-encoding'));
    const body = kind === 'json' ? streamJsonList(items, gzip, typedList(scope)) : streamYamlList(items, gzip, (item) => listItem(scope)(item as KubeObject));
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': kind === 'json' ? 'application/json' : YAML_TYPE, Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
    });
  }
  if (plain && kind === 'json') return replyReadChunks(scope, jsonListChunks(items, typedList(scope)), 'application/json');
  const { value, protobuf } = transformList(scope, list);
  if (scope.format.kind === 'protobuf' && !scope.format.as && protobuf && list.items.length > STREAM_LIST_ITEMS) {
    // A big Protobuf list is encoded in slices too (its length comes first, so it is sent whole), and gzipped
    // off the main thread.
    const typed = value as unknown as { apiVersion: string; kind: string; items: unknown[] } & Record<string, unknown>;
    const raw = await encodeProtobufListInSlices(typed, (m, v) => protobuf.codec.encode(m, v), protobuf.message, scope.entry.info.protobuf.message);
    const body = encodeEnvelope({ apiVersion: typed.apiVersion, kind: typed.kind }, raw);
    return replyReadAsync(scope, { body, contentType: 'application/vnd.kubernetes.protobuf' });
  }
  if (scope.format.kind === 'cbor' && !scope.format.as && list.items.length > STREAM_LIST_ITEMS) {
    // CBOR (CBORServingAndStorage) likewise.
    const body = await encodeCborListInSlices(value as unknown as { items: unknown[] } & Record<string, unknown>);
    return replyReadAsync(scope, { body, contentType: CBOR_TYPE });
  }
  return replyRead(scope, render(value, scope.format, { pretty: scope.pretty, protobuf }));
}
