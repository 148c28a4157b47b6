// Wire behaviour beyond the upstream fixtures: integer ranges, malformed input, unknown fields, time edge cases.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { configMapDescriptor, specialsDescriptor } from '../../test/descriptors.js';
import { isStatusError } from '../errors/status-error.js';
import { createMessageCodec } from './codec.js';

const SAMPLE = 'test.v1.Sample';
const CONFIGMAP = 'k8s.io.api.core.v1.ConfigMap';
const codec = createMessageCodec(specialsDescriptor);
const configMaps = createMessageCodec(configMapDescriptor);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bytesOf = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const encode = (obj: Record<string, unknown>): string => hex(codec.encode(SAMPLE, obj));
const decode = (h: string): Record<string, unknown> => codec.decode(SAMPLE, bytesOf(h));
const written = (build: (w: protobuf.Writer) => unknown): string => {
  const w = protobuf.Writer.create();
  build(w);
  return hex(w.finish());
};
const failure = (fn: () => unknown): [number, string] | undefined => {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return [err.status.code!, err.message];
    throw err;
  }
  return undefined;
};
const encodeError = (detail: string): [number, string] => [500, `Internal error occurred: unable to encode ${SAMPLE} as Protobuf: ${detail}`];
const decodeError = (detail: string, message = SAMPLE): [number, string] => [400, `unable to decode Protobuf ${message}: ${detail}`];

describe('integers', () => {
  it('writes negative int32 and int64 as 10-byte varints and reads them back', () => {
    expect(encode({ count: -1 })).toBe('60' + 'ffffffffffffffffff01');
    expect(encode({ count: -(2 ** 31) })).toBe('60' + '80808080f8ffffffff01');
    expect(encode({ groups: [-(2 ** 63)] })).toBe('40' + '80808080808080808001');
    expect(decode('60ffffffffffffffffff01')).toStrictEqual({ count: -1 });
    expect(decode('40ffffffffffffffffff01')).toStrictEqual({ groups: [-1] });
  });

  it('rejects values outside the field type instead of wrapping them', () => {
    expect(failure(() => encode({ count: 2 ** 31 }))).toEqual(encodeError('count: 2147483648 is out of range for int32'));
    expect(failure(() => encode({ count: 2 ** 40 }))).toEqual(encodeError('count: 1099511627776 is out of range for int32'));
    expect(failure(() => encode({ weights: [-(2 ** 31) - 1] }))).toEqual(encodeError('weights[0]: -2147483649 is out of range for int32'));
    expect(failure(() => encode({ groups: [2 ** 63] }))).toEqual(encodeError('groups[0]: 9223372036854775808 is out of range for int64'));
    expect(failure(() => encode({ port: 2 ** 31 }))).toEqual(encodeError('port: 2147483648 is out of range for int32'));
  });

  it('writes int64 values beyond 2^53 exactly when given exactly, and refuses to round them on decode', () => {
    expect(encode({ groups: ['9223372036854775807'] })).toBe('40' + 'ffffffffffffffff7f');
    expect(encode({ groups: [2 ** 60] })).toBe('40' + '8080808080808080' + '10');
    expect(decode('40' + 'ffffffffffffff0f')).toStrictEqual({ groups: [9007199254740991] });
    expect(failure(() => decode('40' + '8080808080808080' + '10'))).toEqual(
      decodeError('field groups: integer 1152921504606846976 exceeds the precision of JSON numbers (2^53 - 1)'),
    );
  });
});

describe('malformed input', () => {
  it('rejects field number 0', () => {
    expect(failure(() => decode('0001'))).toEqual(decodeError('illegal tag 0 (wire type 0)'));
  });

  it('rejects values that run past their enclosing length', () => {
    // map entry of length 2 whose key claims 3 bytes
    expect(failure(() => configMaps.decode(CONFIGMAP, bytesOf('1202' + '0a03' + '616263')))).toEqual(
      decodeError('unexpected end of message', CONFIGMAP),
    );
    // packed int32s of length 2 whose second varint takes 2 bytes
    expect(failure(() => decode('5202' + '01ac02'))).toEqual(decodeError('unexpected end of message'));
    // IntOrString of length 3 holding an unknown field that claims 5 bytes
    expect(failure(() => decode('0a03' + '2a0500' + '1a020800'))).toEqual(decodeError('unexpected end of message'));
  });

  it('rejects wrong wire types inside special types', () => {
    expect(failure(() => decode('5a02' + '0a00'))).toEqual(decodeError('wrong wire type 2 for field 1 of Time'));
    expect(failure(() => decode('0a02' + '1801'))).toEqual(decodeError('wrong wire type 0 for field 3 of IntOrString'));
    expect(failure(() => decode('1202' + '0800'))).toEqual(decodeError('wrong wire type 0 for field limits'));
  });

  it('rejects truncated bytes and unsupported wire types', () => {
    expect(failure(() => decode('60ff'))).toEqual(decodeError('index out of range: 2 + 1 > 2'));
    expect(failure(() => decode('67'))).toEqual(decodeError('wrong wire type 7 for field count'));
    expect(failure(() => decode('9f06'))).toEqual(decodeError('invalid wire type 7 at offset 2'));
  });
});

describe('unknown fields', () => {
  it('skips every wire type, at the top level and inside messages and special types', () => {
    const unknown = written((w) =>
      w.uint32((90 << 3) | 0).int64(-1)
        .uint32((91 << 3) | 1).fixed64(7)
        .uint32((92 << 3) | 2).string('skipped')
        .uint32((93 << 3) | 5).fixed32(9)
        .uint32((94 << 3) | 3).uint32((1 << 3) | 0).uint32(1).uint32((94 << 3) | 4),
    );
    const unknownIn = (build: (w: protobuf.Writer) => unknown): string => written((w) => build(w)) + unknown;
    expect(decode(unknown + '6005')).toStrictEqual({ count: 5 });
    expect(decode('32' + (unknown.length / 2 + 4).toString(16) + '1001' + unknown + '0a00')).toStrictEqual({
      secretRef: { optional: true },
    });
    const time = unknownIn((w) => w.uint32(0x08).int64(1199149261));
    expect(decode('5a' + (time.length / 2).toString(16) + time)).toStrictEqual({ created: '2008-01-01T01:01:01Z' });
  });
});

describe('Time and MicroTime', () => {
  const time = (build: (w: protobuf.Writer) => unknown): string => written((w) => (build(w.uint32(0x5a).fork()), w.ldelim()));
  const microTime = (build: (w: protobuf.Writer) => unknown): string => written((w) => (build(w.uint32(0x22).fork()), w.ldelim()));

  it('reads Go zero time sent as seconds as JSON null', () => {
    expect(decode(time((w) => w.uint32(0x08).int64(-62135596800)))).toStrictEqual({ created: null });
    expect(decode(microTime((w) => w.uint32(0x08).int64(-62135596800).uint32(0x10).int32(0)))).toStrictEqual({ eventTime: null });
    // a message with fields but none set is the Unix epoch, not the zero time
    expect(decode(time((w) => w.uint32(0x10).int32(0)))).toStrictEqual({ created: '1970-01-01T00:00:00Z' });
  });

  it('writes and reads times before 1970 with floor seconds', () => {
    expect(encode({ created: '1969-12-31T23:59:59.5Z' })).toBe('5a0d' + '08ffffffffffffffffff01' + '1000');
    expect(codec.decode(SAMPLE, codec.encode(SAMPLE, { created: '1969-12-31T23:59:59.5Z', eventTime: '1969-12-31T23:59:59.5Z' }))).toStrictEqual({
      eventTime: '1969-12-31T23:59:59.500000Z',
      created: '1969-12-31T23:59:59Z',
    });
  });

  it('truncates MicroTime to microseconds both ways, as Go does', () => {
    expect(encode({ eventTime: '2010-01-01T01:01:01.123456789Z' })).toBe('220b' + '08cd92f5d904' + '108094ef3a');
    expect(decode(microTime((w) => w.uint32(0x08).int64(0).uint32(0x10).int32(2000000999)))).toStrictEqual({
      eventTime: '1970-01-01T00:00:02.000000Z',
    });
    expect(decode(microTime((w) => w.uint32(0x08).int64(0).uint32(0x10).int32(-1500)))).toStrictEqual({
      eventTime: '1969-12-31T23:59:59.999999Z',
    });
  });

  it('formats years past 9999 as Go does and rejects times JS cannot hold', () => {
    expect(decode(time((w) => w.uint32(0x08).int64(253402300800)))).toStrictEqual({ created: '10000-01-01T00:00:00Z' });
    expect(failure(() => decode(time((w) => w.uint32(0x08).int64(1e15))))).toEqual(
      decodeError('time 1000000000000000s since the epoch is out of range'),
    );
  });
});

describe('bytes', () => {
  const encodeBinary = (value: string): string => hex(configMaps.encode(CONFIGMAP, { binaryData: { a: value } }));

  it('reads standard padded base64 (CR and LF ignored) and writes it back', () => {
    expect(encodeBinary('AQI=')).toBe('1a07' + '0a0161' + '12020102');
    expect(encodeBinary('AQ\r\nI=')).toBe('1a07' + '0a0161' + '12020102');
    expect(configMaps.decode(CONFIGMAP, bytesOf('1a07' + '0a0161' + '1202fbff'))).toStrictEqual({ binaryData: { a: '+/8=' } });
  });

  it('rejects what Go base64.StdEncoding rejects instead of writing garbage', () => {
    for (const bad of ['!!notb64', '-_8=', 'AQI']) {
      expect(failure(() => encodeBinary(bad))).toEqual([
        500,
        `Internal error occurred: unable to encode ${CONFIGMAP} as Protobuf: binaryData[a]: illegal base64 data`,
      ]);
    }
  });
});

describe('maps and RawExtension', () => {
  it('orders map keys by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF61 is EF BD A1, U+1F600 is F0 9F 98 80: UTF-16 order would put the emoji first
    const out = hex(configMaps.encode(CONFIGMAP, { data: { '\u{1F600}': '', '\uFF61': '' } }));
    expect(out).toBe('1207' + '0a03efbda1' + '1200' + '1208' + '0a04f09f9880' + '1200');
  });

  it('writes a large map sorted by key bytes whatever the insertion order', () => {
    const keys = Array.from({ length: 200 }, (_, i) => `k${(i * 7919) % 200}`);
    const data = Object.fromEntries(keys.map((k) => [k, '']));
    const decoded = configMaps.decode(CONFIGMAP, configMaps.encode(CONFIGMAP, { data }));
    const wire: string[] = [];
    const r = protobuf.Reader.create(configMaps.encode(CONFIGMAP, { data }));
    while (r.pos < r.len) {
      r.uint32();
      const entry = protobuf.Reader.create(r.bytes());
      entry.uint32();
      wire.push(entry.string());
    }
    expect(wire).toEqual([...keys].sort());
    expect(Object.keys(decoded.data as object).sort()).toEqual([...keys].sort());
  });

  it('keeps IntOrString strings that look like numbers as strings, and rejects fractions', () => {
    expect(codec.decode(SAMPLE, codec.encode(SAMPLE, { port: '80', ports: [80, '80'] }))).toStrictEqual({ port: '80', ports: [80, '80'] });
    expect(failure(() => encode({ port: 1.5 }))).toEqual(encodeError('port: expected an integer or a string, got number'));
  });

  it('carries arrays, strings, numbers and booleans in a RawExtension', () => {
    for (const object of [[1, 'a', { b: null }], 'text', 5, false]) {
      expect(codec.decode(SAMPLE, codec.encode(SAMPLE, { object }))).toStrictEqual({ object });
    }
    expect(encode({ object: [1, 'a'] })).toBe('2a09' + '0a07' + Buffer.from('[1,"a"]').toString('hex'));
  });
});

describe('field names protobufjs refuses', () => {
  it('reads and writes a field under its kapi_json_name option', () => {
    const named = createMessageCodec({
      nested: { t: { nested: { Schema: { fields: { ref: { type: 'string', id: 1, options: { kapi_json_name: '$ref' } } } } } } },
    });
    expect(hex(named.encode('t.Schema', { $ref: '#/a' }))).toBe('0a03' + Buffer.from('#/a').toString('hex'));
    expect(named.decode('t.Schema', bytesOf('0a0123'))).toStrictEqual({ $ref: '#' });
  });
});
