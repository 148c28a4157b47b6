import type { KubeObject } from '@kapi/apimachinery';
import type { WatcherEvent } from '../../storage/interfaces.js';
import { parseListOptions } from '../../registry/list-options.js';
import { createWatchEncoder, frameOnce } from '../watch-framing.js';
import { tableOf, type RequestScope } from './scope.js';

/**
 * A watch (kube's ListResource with watch=true): the Store decides what the stream carries; this frames each
 * event in the negotiated media type: as a Table row for clients that asked for tables, as PartialObjectMetadata
 * for metadata-only clients.
 */
export async function watchHandler(scope: RequestScope): Promise<Response> {
  const table = scope.format.as?.kind === 'Table';
  const { group, version, kind } = scope.entry.info;
  const metrics = scope.metrics;
  const encoded = metrics?.watchEncodings.bind(group, version, kind);
  const encoder = createWatchEncoder(scope.format, scope.entry);
  // Live events are encoded once per version and media type and shared by every watcher (frameOnce): counted here.
  const encodeShared = encoded ? (type: WatcherEvent['type'], object: unknown) => (encoded(), encoder.encode(type, object)) : encoder.encode;
  let first = true;
  const encode = ({ type, object, live }: WatcherEvent): Uint8Array => {
    if (type === 'ERROR' || type === 'BOOKMARK') return encoder.encode(type, object);
    if (table) {
      // The first row carries the column definitions; each event is rendered for this watcher.
      const row = tableOf(scope, [object as KubeObject], undefined, !first);
      first = false;
      return encoder.encode(type, row);
    }
    return live ? frameOnce(encoder, type, object as object, encodeShared) : encoder.encode(type, object);
  };
  const sizes = metrics?.watchEventSizes.labels(group, version, kind);
  const frame = (event: WatcherEvent): Uint8Array => {
    const bytes = encode(event);
    metrics?.watchEvents.add(group, version, kind);
    sizes?.observe(bytes.byteLength);
    return bytes;
  };
  const stream = await scope.store.watch(scope.ctx, parseListOptions(scope.entry, scope.query), {
    name: scope.info.name || undefined,
    watchList: scope.features.watchList,
    frame,
    signal: scope.request.signal,
  });
  return new Response(stream, { status: 200, headers: { 'Content-Type': encoder.contentType, 'Cache-Control': 'no-cache, private' } });
}
