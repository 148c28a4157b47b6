import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isStatusError } from '../errors/status-error.js';
import { decodeEnvelope, encodeEnvelope, hasProtobufMagic } from './envelope.js';

const pb = new Uint8Array(readFileSync(new URL('../../test/fixtures/core.v1.ConfigMap.pb', import.meta.url)));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const failure = (bytes: Uint8Array): [number | undefined, string] | undefined => {
  try {
    decodeEnvelope(bytes);
  } catch (err) {
    if (isStatusError(err)) return [err.status.code, err.message];
  }
  return undefined;
};

describe('Protobuf envelope', () => {
  it('decodes the upstream fixture', () => {
    const env = decodeEnvelope(pb);
    expect(env.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(env.contentEncoding).toBe('');
    expect(env.contentType).toBe('');
    expect(env.raw.length).toBe(399);
    expect(hex(env.raw.subarray(0, 4))).toBe('0ae0020a');
  });

  it('re-encodes it byte for byte, empty contentEncoding and contentType included', () => {
    const { typeMeta, raw } = decodeEnvelope(pb);
    const out = encodeEnvelope(typeMeta, raw);
    expect(hex(out)).toBe(hex(pb));
    expect(hex(out.subarray(out.length - 4))).toBe('1a002200');
  });

  it('writes empty TypeMeta strings and the content fields when given', () => {
    expect(hex(encodeEnvelope({ apiVersion: '', kind: '' }, new Uint8Array(0)))).toBe('6b387300' + '0a04' + '0a00' + '1200' + '1200' + '1a00' + '2200');
    const env = encodeEnvelope({ apiVersion: 'apps/v1', kind: 'Deployment' }, Uint8Array.of(1, 2), { contentEncoding: 'gzip', contentType: 'x' });
    expect(decodeEnvelope(env)).toEqual({
      typeMeta: { apiVersion: 'apps/v1', kind: 'Deployment' },
      raw: Uint8Array.of(1, 2),
      contentEncoding: 'gzip',
      contentType: 'x',
    });
  });

  it('rejects other payloads with kube messages', () => {
    expect(hasProtobufMagic(pb)).toBe(true);
    expect(hasProtobufMagic(Buffer.from('{"kind":"Pod"}'))).toBe(false);
    expect(failure(Buffer.from('{"kind":"Pod"}'))).toEqual([
      400, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    ]);
    expect(failure(new Uint8Array(0))).toEqual([400, 'empty data']);
    expect(failure(Uint8Array.of(0x6b, 0x38, 0x73, 0x00))).toEqual([400, 'empty body']);
    expect(failure(pb.subarray(0, 40))).toEqual([400, 'unable to decode the Protobuf envelope: unexpected end of message']);
    // typeMeta of length 3 whose apiVersion claims 4 bytes, which would swallow the raw field's tag
    const overrun = Uint8Array.from(Buffer.from('6b387300' + '0a03' + '0a0476' + '31' + '1200', 'hex'));
    expect(failure(overrun)).toEqual([400, 'unable to decode the Protobuf envelope: unexpected end of message']);
    expect(failure(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x00, 0x01))).toEqual([
      400, 'unable to decode the Protobuf envelope: illegal tag 0 (wire type 0)',
    ]);
  });
});
