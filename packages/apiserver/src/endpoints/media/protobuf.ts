import { decodeEnvelope, encodeEnvelope, encodeProtobufObject, newUnsupportedMediaType } from '@kapi/apimachinery';
import { metaCodec, STATUS_MESSAGE } from './meta.js';
import { json } from './json.js';
import type { MediaType } from './types.js';

export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

const WATCH_EVENT_MESSAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent';

/**
 * application/vnd.kubernetes.protobuf: the `k8s\0` envelope around the kind's message. Kinds without a Protobuf
 * form are answered in JSON. Watches (`;stream=watch`) are a 4-byte big-endian length, then an enveloped meta.v1
 * WatchEvent (TypeMeta `<group version>`/`WatchEvent`) whose object is the enveloped object's bytes.
 */
export const protobuf: MediaType = {
  name: 'protobuf',
  accepts: [PROTOBUF_TYPE],
  requestTypes: [PROTOBUF_TYPE],
  contentType: PROTOBUF_TYPE,
  encode(value, options) {
    if (!options.protobuf) return json.encode(value, options);
    return encodeProtobufObject(options.protobuf.codec, options.protobuf.message, value as Record<string, unknown>);
  },
  decode(body, message) {
    if (!message) throw newUnsupportedMediaType([json.contentType]);
    const { typeMeta, raw } = decodeEnvelope(body);
    const decoded = message.codec.decode(message.message, raw);
    return { value: { apiVersion: typeMeta.apiVersion || undefined, kind: typeMeta.kind || undefined, ...decoded }, duplicates: () => [] };
  },
  watch: {
    contentType: `${PROTOBUF_TYPE};stream=watch`,
    frame(type, object, { protobuf: message, apiVersion }) {
      const raw =
        type === 'ERROR'
          ? encodeProtobufObject(metaCodec(), STATUS_MESSAGE, object as Record<string, unknown>)
          : encodeProtobufObject(message.codec, message.message, object as Record<string, unknown>);
      const event = encodeEnvelope({ apiVersion, kind: 'WatchEvent' }, metaCodec().encode(WATCH_EVENT_MESSAGE, { type, object: raw }));
      const frame = new Uint8Array(4 + event.length);
      new DataView(frame.buffer).setUint32(0, event.length);
      frame.set(event, 4);
      return frame;
    },
  },
};
