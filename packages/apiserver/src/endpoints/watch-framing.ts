import { encodeEnvelope, encodeProtobufObject, type KubeObject, type WatchEventType } from '@kapi/apimachinery';
import type { ResourceEntry } from '../registry/resources.js';
import { CBOR_SEQ_TYPE, encodeCbor } from './cbor.js';
import { JSON_TYPE, PROTOBUF_TYPE, type ResponseFormat } from './negotiate.js';
import { metaCodec, STATUS_MESSAGE } from './respond.js';


export interface WatchEncoder {
  contentType: string;
  /** Equal for encoders that frame an object into the same bytes (media type and API version). */
  id: string;
  /** One framed event; `object` is the resource (or a Status for ERROR). */
  encode(type: WatchEventType, object: unknown): Uint8Array;
}

const WATCH_EVENT_MESSAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent';
const text = new TextEncoder();

/**
 * How watch events are framed per media type, as kube-apiserver frames them:
 * JSON: one JSON document per line; Protobuf (`;stream=watch`): a 4-byte big-endian length, then an enveloped
 * meta.v1 WatchEvent (TypeMeta `<group version>`/`WatchEvent`) whose object is the enveloped object's bytes;
 * CBOR (`application/cbor-seq`): one self-described CBOR watch event after another.
 */
export function createWatchEncoder(format: ResponseFormat, entry: ResourceEntry): WatchEncoder {
  if (format.kind === 'protobuf') {
    const apiVersion = entry.info.group ? `${entry.info.group}/${entry.info.version}` : entry.info.version;
    return {
      contentType: `${PROTOBUF_TYPE};stream=watch`,
      id: `${PROTOBUF_TYPE} ${apiVersion}`,
      encode(type, object) {
        const raw =
          type === 'ERROR'
            ? encodeProtobufObject(metaCodec(), STATUS_MESSAGE, object as Record<string, unknown>)
            : encodeProtobufObject(entry.codec(), entry.info.protobuf.message, object as Record<string, unknown>);
        const event = encodeEnvelope({ apiVersion, kind: 'WatchEvent' }, metaCodec().encode(WATCH_EVENT_MESSAGE, { type, object: raw }));
        const frame = new Uint8Array(4 + event.length);
        new DataView(frame.buffer).setUint32(0, event.length);
        frame.set(event, 4);
        return frame;
      },
    };
  }
  if (format.kind === 'cbor') {
    return { contentType: CBOR_SEQ_TYPE, id: CBOR_SEQ_TYPE, encode: (type, object) => encodeCbor({ type, object }) };
  }
  return {
    contentType: JSON_TYPE,
    id: JSON_TYPE,
    encode: (type, object) => text.encode(JSON.stringify({ type, object: object as KubeObject }) + '\n'),
  };
}

const frames = new WeakMap<object, Map<string, Uint8Array>>();

/**
 * An event framed once per media type (DESIGN.md convention 4): the watch cache shares each object version among
 * all watchers, so the bytes are kept with the object and reused by every watcher that sends it the same way. Used
 * for live events, as kube's cachingObject is; the synthetic ADDED events of a watch's initial state are framed
 * per watcher, so a collection's current objects do not all carry encodings.
 */
export function frameOnce(encoder: WatchEncoder, type: WatchEventType, object: object): Uint8Array {
  let byKey = frames.get(object);
  if (!byKey) frames.set(object, (byKey = new Map()));
  const key = `${type} ${encoder.id}`;
  let frame = byKey.get(key);
  if (!frame) byKey.set(key, (frame = encoder.encode(type, object)));
  return frame;
}
