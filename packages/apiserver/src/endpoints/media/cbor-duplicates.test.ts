import { describe, expect, it } from 'vitest';
import { encodeCbor } from './cbor-codec.js';
import { duplicateCborFields } from './cbor-duplicates.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s/g, ''), 'hex'));

describe('duplicateCborFields', () => {
  it('finds nothing in what an encoder writes', () => {
    expect(duplicateCborFields(encodeCbor({ metadata: { name: 'a' }, items: [{ a: 1 }, { b: [1, 2] }] }))).toEqual([]);
  });

  it('names repeated keys at any depth, in maps of definite and indefinite length, behind tags', () => {
    // d9d9f7 {"a": 1, "a": 2, "m": {"x": [ {_ "k": 1, "k": 2 } ]}}
    const bytes = hex('d9d9f7 a3 6161 01 6161 02 616d a1 6178 81 bf 616b 01 616b 02 ff');
    expect(duplicateCborFields(bytes)).toEqual(['a', 'm.x[0].k']);
  });

  it('survives truncated input', () => {
    expect(duplicateCborFields(hex('a2 6161 01 6161'))).toEqual(['a']);
  });
});
