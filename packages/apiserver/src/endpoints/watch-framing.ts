import type { KubeObject, WatchEventType } from '@kapi/apimachinery';
import { partialMetadataMessage, partialObjectMetadata } from './transform.js';
import { apiVersionOf, type ResourceEntry } from '../registry/resources.js';
import { MEDIA_TYPES } from './media/index.js';
import type { ResponseFormat } from './negotiate.js';

export interface WatchEncoder {
  contentType: string;
  /** Equal for encoders that frame an object into the same bytes (media type and API version). */
  id: string;
  /** One framed event; `object` is the resource (or a Status for ERROR). */
  encode(type: WatchEventType, object: unknown): Uint8Array;
}

/**
 * A watch stream's framing for one resource, in the negotiated media type (see each media type's `watch`). With
 * the metadata-only conversion each object (bookmarks too) is sent as its PartialObjectMetadata.
 */
export function createWatchEncoder(format: ResponseFormat, entry: ResourceEntry): WatchEncoder {
  const media = MEDIA_TYPES[format.kind];
  const metadata = format.as?.kind === 'PartialObjectMetadata' ? format.as.version : undefined;
  const apiVersion = metadata ? `meta.k8s.io/${metadata}` : apiVersionOf(entry.info);
  const options = {
    apiVersion,
    get protobuf() {
      return metadata ? partialMetadataMessage(false) : { codec: entry.codec(), message: entry.info.protobuf.message };
    },
  };
  const convert = (type: WatchEventType, object: unknown) =>
    metadata && type !== 'ERROR' ? partialObjectMetadata(object as KubeObject, metadata) : object;
  return {
    contentType: media.watch.contentType,
    id: `${media.watch.contentType} ${apiVersion}`,
    encode: (type, object) => media.watch.frame(type, convert(type, object), options),
  };
}

const frames = new WeakMap<object, Map<string, Uint8Array>>();

/**
 * An event framed once per media type (docs/architecture.md, conventions): the watch cache shares each object version among
 * all watchers, so the bytes are kept with the object and reused by every watcher that sends it the same way. Used
 * for live events, as kube's cachingObject is; the synthetic ADDED events of a watch's initial state are framed
 * per watcher, so a collection's current objects do not all carry encodings.
 */
export function frameOnce(encoder: WatchEncoder, type: WatchEventType, object: object, encode = encoder.encode): Uint8Array {
  let byKey = frames.get(object);
  if (!byKey) frames.set(object, (byKey = new Map()));
  const key = `${type} ${encoder.id}`;
  let frame = byKey.get(key);
  if (!frame) byKey.set(key, (frame = encode(type, object)));
  return frame;
}
