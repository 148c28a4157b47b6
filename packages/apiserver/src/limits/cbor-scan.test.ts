import { describe, expect, it } from 'vitest';
import { scanCbor } from './cbor-scan.js';
import { MAX_NESTING_DEPTH } from './nesting.js';

const bytes = (...b: (number | number[])[]) => Uint8Array.from(b.flat());
const message = (b: Uint8Array) => {
  try {
    scanCbor(b);
    return 'ok';
  } catch (err) {
    return (err as { status: { message: string } }).status.message;
  }
};

describe('scanCbor', () => {
  it('passes well-formed items and drops their tag heads', () => {
    // 55799({"a": [1, 1(2)]})
    expect(scanCbor(bytes(0xd9, 0xd9, 0xf7, 0xa1, 0x61, 0x61, 0x82, 0x01, 0xc1, 0x02))).toEqual(bytes(0xa1, 0x61, 0x61, 0x82, 0x01, 0x02));
    const plain = bytes(0xbf, 0x61, 0x61, 0x9f, 0x01, 0xff, 0x7f, 0x61, 0x62, 0xff, 0xf6, 0xff); // {_ "a": [_ 1], (_ "b"): null}
    expect(scanCbor(plain)).toBe(plain);
  });

  it('refuses malformed items, extra bytes and lengths the body cannot have', () => {
    expect(message(bytes(0x82, 0x01))).toBe('error decoding CBOR: unexpected EOF');
    expect(message(bytes(0xa0, 0x00))).toBe('error decoding CBOR: extraneous data after the data item');
    expect(message(bytes(0x9b, 0, 0, 1, 0, 0, 0, 0, 0))).toBe('error decoding CBOR: unexpected EOF');
    expect(message(bytes(0xff))).toBe('error decoding CBOR: unexpected "break" code');
    expect(message(bytes(0xbf, 0x61, 0x61, 0xff))).toBe('error decoding CBOR: indefinite-length map has a key without a value');
    expect(message(bytes(0x7f, 0x01, 0xff))).toBe('error decoding CBOR: wrong element type for an indefinite-length string');
    expect(message(bytes(0x1c))).toBe('error decoding CBOR: invalid additional information 28 for type 0');
    expect(message(bytes(0xf8, 0x10))).toBe('error decoding CBOR: invalid simple value 16');
  });

  it(`counts arrays, maps and tags as levels, up to ${MAX_NESTING_DEPTH}`, () => {
    expect(message(bytes(Array(MAX_NESTING_DEPTH).fill(0x81), 0x00))).toBe('ok');
    expect(message(bytes(Array(MAX_NESTING_DEPTH + 1).fill(0x81), 0x00))).toBe(`error decoding CBOR: exceeded max nested level ${MAX_NESTING_DEPTH}`);
    expect(message(bytes(Array(100_000).fill(0xc6), 0x00))).toBe(`error decoding CBOR: exceeded max nested level ${MAX_NESTING_DEPTH}`);
  });
});
