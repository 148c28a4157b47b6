import { CBOR_SEQ_TYPE, CBOR_TYPE, decodeCbor, encodeCbor } from './cbor-codec.js';
import { duplicateCborFields } from './cbor-duplicates.js';
import type { MediaType } from './types.js';

/**
 * application/cbor (CBORServingAndStorage): one self-described CBOR data item per body; watches are CBOR
 * Sequences (`application/cbor-seq`), one event after another.
 */
export const cbor: MediaType = {
  name: 'cbor',
  accepts: [CBOR_TYPE, CBOR_SEQ_TYPE],
  requestTypes: [CBOR_TYPE],
  contentType: CBOR_TYPE,
  encode: (value) => encodeCbor(value),
  decode: (body) => ({ value: decodeCbor(body), duplicates: () => duplicateCborFields(body) }),
  watch: { contentType: CBOR_SEQ_TYPE, frame: (type, object) => encodeCbor({ type, object }) },
};
