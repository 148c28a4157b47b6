import type { KubeObject } from '@kapi/apimachinery';
import { parseListOptions } from '../../registry/list-options.js';
import { acceptsGzip } from '../compression.js';
import { STREAM_LIST_ITEMS, streamJsonList } from '../list-stream.js';
import { render } from '../respond.js';
import { replyRead, transformList, type RequestScope } from './scope.js';

/** GET of a collection (kube's ListResource), as a list or converted as negotiated (Table, PartialObjectMetadataList). */
export async function listHandler(scope: RequestScope): Promise<Response> {
  const list = await scope.store.list(scope.ctx, parseListOptions(scope.entry, scope.query));
  const { value, protobuf } = transformList(scope, list);
  const items = (value as { items?: unknown }).items;
  if (scope.format.kind === 'json' && !scope.pretty && Array.isArray(items) && items.length > STREAM_LIST_ITEMS) {
    // A big list is written in slices, so encoding it does not hold up other requests (and it is big: gzip).
    const gzip = scope.features.compression && acceptsGzip(scope.request.headers.get('accept-encoding'));
    return new Response(streamJsonList(value as KubeObject & { items: unknown[] }, gzip), {
      status: 200,
      headers: { 'Content-Type': 'application/json', Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
    });
  }
  return replyRead(scope, render(value, scope.format, { pretty: scope.pretty, protobuf }));
}
