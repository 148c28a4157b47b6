import { cbor } from './cbor.js';
import { json } from './json.js';
import { protobuf } from './protobuf.js';
import type { MediaName, MediaType } from './types.js';
import { yaml } from './yaml.js';

export type { Decoded, EncodeOptions, MediaName, MediaType, ProtobufMessage, WatchFraming } from './types.js';

/** Every media type Kapi can speak, by name. */
export const MEDIA_TYPES: Record<MediaName, MediaType> = { json, yaml, protobuf, cbor };

/** The media types a server offers, in kube's order of preference: CBOR only with the CBORServingAndStorage gate. */
export function offeredMediaTypes(gates: { CBORServingAndStorage?: boolean } = {}): MediaType[] {
  return [json, yaml, protobuf, ...(gates.CBORServingAndStorage ? [cbor] : [])];
}
