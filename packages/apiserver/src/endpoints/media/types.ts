import type { MessageCodec, WatchEventType } from '@kapi/apimachinery';

/** The serializations a server speaks, by the short name negotiation uses. */
export type MediaName = 'json' | 'yaml' | 'protobuf' | 'cbor';

/** A kind's Protobuf message: what the Protobuf serializer needs to encode or decode it. */
export interface ProtobufMessage {
  codec: MessageCodec;
  message: string;
}

export interface EncodeOptions {
  pretty?: boolean;
  /** The kind's message; Protobuf falls back to JSON without one (kinds with no Protobuf form). */
  protobuf?: ProtobufMessage;
}

export interface Decoded {
  /** The body in its JSON form (Protobuf: with apiVersion and kind from the envelope's TypeMeta). */
  value: unknown;
  /** Fields the body repeats, as kube-style paths, for field validation (computed on demand; ask before changing `value`). */
  duplicates(): string[];
}

/** How one watch event is framed in a stream of this media type. */
export interface WatchFraming {
  /** The stream's Content-Type. */
  contentType: string;
  /**
   * One framed event: `object` is the resource, or a Status for ERROR. `protobuf` is the kind's message and
   * `apiVersion` the watched group version (the Protobuf frame's TypeMeta).
   */
  frame(type: WatchEventType, object: unknown, options: { protobuf: ProtobufMessage; apiVersion: string }): Uint8Array;
}

/**
 * One media type the API serves (k8s.io/apimachinery's serializer info): the names it answers to in Accept and
 * Content-Type, how bodies are encoded and decoded (with the nesting and number limits and duplicate-field
 * detection of its decoder), and how watch streams are framed. The server registers the ones its feature gates
 * allow; negotiation picks from them.
 */
export interface MediaType {
  name: MediaName;
  /** `type/subtype` names matched in Accept. */
  accepts: string[];
  /** `type/subtype` names accepted as a request body's Content-Type. */
  requestTypes: string[];
  /** The Content-Type of responses. */
  contentType: string;
  encode(value: unknown, options: EncodeOptions): string | Uint8Array;
  /** Decodes a request body; Protobuf needs the kind's message (bodies of other kinds are not Protobuf). */
  decode(body: Uint8Array, protobuf?: ProtobufMessage): Decoded;
  watch: WatchFraming;
}
