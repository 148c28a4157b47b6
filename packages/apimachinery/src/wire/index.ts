export type { MessageCodec, ProtoDescriptor } from './types.js';
export { createMessageCodec } from './codec.js';
export { beyondJsonPrecision } from './codec-scalars.js';
export { SPECIAL_TYPES, type SpecialType } from './codec-plan.js';
export {
  PROTOBUF_MAGIC,
  encodeEnvelope,
  decodeEnvelope,
  hasProtobufMagic,
  type Envelope,
  type EnvelopeTypeMeta,
} from './envelope.js';
export { encodeProtobufObject, decodeProtobufObject } from './protobuf-object.js';
export { canonicalTime, formatTime, formatMicroTime, nowTimestamp, parseRFC3339, formatDuration, parseDuration, type Timestamp } from './go-time.js';
export { canonicalQuantity, parseQuantity, formatQuantity, QUANTITY_FORMAT_ERROR, type Decimal as QuantityDecimal, type ParsedQuantity, type QuantityFormat } from './quantity.js';
