// The `k8s\0` Protobuf envelope: four magic bytes, then a runtime.Unknown message
// {typeMeta(1): {apiVersion(1), kind(2)}, raw(2), contentEncoding(3), contentType(4)}.
import { protobufLibrary } from './protobuf-library.js';
import { newBadRequest } from '../errors/factories.js';
import { readTag } from './codec-tag.js';

/** The magic prefix of kube's Protobuf encoding: `k8s\0`. */
export const PROTOBUF_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** The TypeMeta carried by the envelope. */
export interface EnvelopeTypeMeta {
  apiVersion: string;
  kind: string;
}

/** A decoded envelope. `raw` is a view into the input bytes. */
export interface Envelope {
  typeMeta: EnvelopeTypeMeta;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** Whether `bytes` start with the `k8s\0` prefix. */
export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && PROTOBUF_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * Wraps a raw Protobuf message in the envelope, byte for byte as Go writes it: typeMeta (both strings, even
 * empty), raw, contentEncoding and contentType are always written (Go's fields are values, not pointers).
 */
export function encodeEnvelope(
  typeMeta: EnvelopeTypeMeta,
  raw: Uint8Array,
  options: { contentEncoding?: string; contentType?: string } = {},
): Uint8Array {
  const w = protobufLibrary().Writer.create();
  w.uint32(0x0a).fork().uint32(0x0a).string(typeMeta.apiVersion).uint32(0x12).string(typeMeta.kind).ldelim();
  w.uint32(0x12).bytes(raw);
  w.uint32(0x1a).string(options.contentEncoding ?? '');
  w.uint32(0x22).string(options.contentType ?? '');
  const body = w.finish();
  const out = new Uint8Array(PROTOBUF_MAGIC.length + body.length);
  out.set(PROTOBUF_MAGIC, 0);
  out.set(body, PROTOBUF_MAGIC.length);
  return out;
}

/**
 * Unwraps the envelope. Throws a 400 BadRequest StatusError with kube's messages when the payload is empty, has
 * another prefix (`provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]`),
 * or is truncated. Unknown fields are skipped.
 */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  if (bytes.length === 0) throw newBadRequest('empty data');
  if (!hasProtobufMagic(bytes)) {
    throw newBadRequest(`provided data does not appear to be a protobuf message, expected prefix [${PROTOBUF_MAGIC.join(' ')}]`);
  }
  if (bytes.length === PROTOBUF_MAGIC.length) throw newBadRequest('empty body');
  const envelope: Envelope = { typeMeta: { apiVersion: '', kind: '' }, raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  try {
    const r = protobufLibrary().Reader.create(bytes.subarray(PROTOBUF_MAGIC.length));
    while (r.pos < r.len) {
      const tag = readTag(r);
      switch (tag) {
        case 0x0a: {
          const end = r.uint32() + r.pos;
          if (end > r.len) throw new RangeError('unexpected end of message');
          while (r.pos < end) {
            const t = readTag(r);
            if (t === 0x0a) envelope.typeMeta.apiVersion = r.string();
            else if (t === 0x12) envelope.typeMeta.kind = r.string();
            else r.skipType(t & 7);
          }
          // a string that ran past typeMeta's length would have eaten the fields after it
          if (r.pos !== end) throw new RangeError('unexpected end of message');
          break;
        }
        case 0x12: {
          const len = r.uint32();
          if (r.pos + len > r.len) throw new RangeError('unexpected end of message');
          envelope.raw = bytes.subarray(PROTOBUF_MAGIC.length + r.pos, PROTOBUF_MAGIC.length + r.pos + len);
          r.pos += len;
          break;
        }
        case 0x1a:
          envelope.contentEncoding = r.string();
          break;
        case 0x22:
          envelope.contentType = r.string();
          break;
        default:
          r.skipType(tag & 7);
      }
    }
  } catch (err) {
    throw newBadRequest(`unable to decode the Protobuf envelope: ${(err as Error).message}`);
  }
  return envelope;
}
