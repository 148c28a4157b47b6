import { newBadRequest, requireLazily } from '@kapi/apimachinery';
import type { Decoder, Encoder } from 'cbor-x';
import { scanCbor } from '../../limits/cbor-scan.js';
import { checkDecoded } from '../../limits/nesting.js';

export const CBOR_TYPE = 'application/cbor';
export const CBOR_SEQ_TYPE = 'application/cbor-seq';

/** cbor-x, loaded on the first CBOR request or watch: a server whose clients never use CBOR does not load it. */
const cborX = requireLazily<typeof import('cbor-x')>(import.meta.url, 'cbor-x');
let codec: { encoder: Encoder; decoder: Decoder } | undefined;
const cbor = () =>
  (codec ??= {
    // Plain maps and arrays, never cbor-x's record extension: the output must be standard CBOR any client reads.
    encoder: new (cborX().Encoder)({ useRecords: false, mapsAsObjects: true, variableMapSize: true }),
    // Maps decode as Map, made objects by checkDecoded with every key as data: cbor-x's own objects rename a
    // `__proto__` key to `__proto_`, which would change the client's data.
    decoder: new (cborX().Decoder)({ useRecords: false, mapsAsObjects: false }),
  });

/** The self-described CBOR tag (55799) kube writes before each top-level CBOR object. */
export const SELF_DESCRIBED = Uint8Array.of(0xd9, 0xd9, 0xf7);

/** A JSON-form value as one CBOR data item, without the self-described tag. */
export const cborItem = (value: unknown): Uint8Array => cbor().encoder.encode(value);

/** Encodes a JSON-form value as one self-described CBOR data item, as kube-apiserver emits. */
export function encodeCbor(value: unknown): Uint8Array {
  const body = cborItem(value);
  const out = new Uint8Array(SELF_DESCRIBED.length + body.length);
  out.set(SELF_DESCRIBED);
  out.set(body, SELF_DESCRIBED.length);
  return out;
}

/**
 * Decodes one CBOR data item (self-described or not) into JSON values; anything else is a 400. The bytes are
 * checked first (well-formed, bounded nesting, tags dropped: see scanCbor), and what the decoder returns beyond
 * JSON is converted or refused (checkDecoded).
 */
export function decodeCbor(bytes: Uint8Array): unknown {
  const plain = scanCbor(bytes);
  let value: unknown;
  try {
    value = cbor().decoder.decode(plain);
  } catch (err) {
    throw newBadRequest(`error decoding CBOR: ${(err as Error).message}`);
  }
  return checkDecoded(value, 'CBOR');
}
