import { decodeEnvelope, encodeEnvelope } from './envelope.js';
import type { MessageCodec } from './types.js';

/**
 * A whole object as kube's Protobuf body: the envelope's TypeMeta from the object's `apiVersion` and `kind`, and
 * the object (without them) as message `messageName`.
 */
export function encodeProtobufObject(codec: MessageCodec, messageName: string, obj: Record<string, unknown>): Uint8Array {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  return encodeEnvelope({ apiVersion, kind }, codec.encode(messageName, obj));
}

/**
 * A kube Protobuf body as the JSON object: `kind` and `apiVersion` from the envelope (first, as kube's JSON; left
 * out when empty), then the message's fields. Throws a 400 BadRequest StatusError for malformed bytes.
 */
export function decodeProtobufObject(codec: MessageCodec, messageName: string, bytes: Uint8Array): Record<string, unknown> {
  const { typeMeta, raw } = decodeEnvelope(bytes);
  const head: Record<string, unknown> = {};
  if (typeMeta.kind) head.kind = typeMeta.kind;
  if (typeMeta.apiVersion) head.apiVersion = typeMeta.apiVersion;
  return { ...head, ...codec.decode(messageName, raw) };
}
