import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configMapDescriptor, leaseDescriptor, specialsDescriptor } from '../../test/descriptors.js';
import { isStatusError } from '../errors/status-error.js';
import { createMessageCodec } from './codec.js';
import { decodeEnvelope } from './envelope.js';
import { decodeProtobufObject, encodeProtobufObject } from './protobuf-object.js';

const fixture = (name: string) => {
  const base = new URL(`../../test/fixtures/${name}`, import.meta.url);
  return {
    json: JSON.parse(readFileSync(`${base.pathname}.json`, 'utf8')) as Record<string, unknown>,
    yaml: parseYaml(readFileSync(`${base.pathname}.yaml`, 'utf8')) as Record<string, unknown>,
    pb: new Uint8Array(readFileSync(`${base.pathname}.pb`)),
  };
};

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('createMessageCodec against upstream golden fixtures', () => {
  for (const [name, descriptor, message] of [
    ['core.v1.ConfigMap', configMapDescriptor, 'k8s.io.api.core.v1.ConfigMap'],
    ['coordination.k8s.io.v1.Lease', leaseDescriptor, 'k8s.io.api.coordination.v1.Lease'],
  ] as const) {
    const codec = createMessageCodec(descriptor);
    const { json, yaml, pb } = fixture(name);

    it(`${name}: decodes the .pb to exactly the .json object`, () => {
      const decoded = decodeProtobufObject(codec, message, pb);
      expect(decoded).toStrictEqual(json);
      expect(yaml).toStrictEqual(json);
      // kube's JSON key order too (Go struct order), not only equal content
      expect(JSON.stringify(decoded)).toBe(JSON.stringify(json));
    });

    it(`${name}: encodes the .json to byte-identical .pb`, () => {
      expect(hex(encodeProtobufObject(codec, message, json))).toBe(hex(pb));
      const { raw } = decodeEnvelope(pb);
      expect(hex(codec.encode(message, json))).toBe(hex(raw));
    });
  }
});

describe('createMessageCodec special types', () => {
  const codec = createMessageCodec(specialsDescriptor);
  const roundTrip = (obj: Record<string, unknown>) => codec.decode('test.v1.Sample', codec.encode('test.v1.Sample', obj));
  const bytes = (obj: Record<string, unknown>) => hex(codec.encode('test.v1.Sample', obj));

  it('writes IntOrString with all three fields, as Go', () => {
    expect(bytes({ port: 8080 })).toBe('0a07' + '0800' + '10903f' + '1a00');
    expect(bytes({ port: 'http' })).toBe('0a0a' + '0801' + '1000' + '1a0468747470');
    expect(bytes({ port: -1 })).toBe('0a0f' + '0800' + '10ffffffffffffffffff01' + '1a00');
    expect(roundTrip({ port: 8080, ports: [80, 'https', 0] })).toStrictEqual({ port: 8080, ports: [80, 'https', 0] });
  });

  it('writes Quantity maps in key byte order', () => {
    expect(bytes({ limits: { memory: '128Mi', cpu: '500m' } })).toBe(
      '120d' + '0a03637075' + '12060a04' + '3530306d' + '1211' + '0a066d656d6f7279' + '12070a05' + '3132384d69',
    );
    expect(roundTrip({ limits: { memory: '128Mi', cpu: '500m', 'Z': '1' } })).toStrictEqual({
      limits: { Z: '1', cpu: '500m', memory: '128Mi' },
    });
    expect(Object.keys(roundTrip({ limits: { b: '1', a: '2', B: '3', '10': '4', '9': '5' } }).limits as object)).toEqual([
      '9', '10', 'B', 'a', 'b', // JS puts integer-like keys first; the wire order is '10', '9', 'B', 'a', 'b'
    ]);
    expect(bytes({ limits: { '9': '1', '10': '2' } })).toBe('1209' + '0a023130' + '12030a0132' + '1208' + '0a0139' + '12030a0131');
  });

  it('writes Duration as nanoseconds and reads Go duration strings', () => {
    expect(bytes({ timeout: '1m30s' })).toBe('1a07' + '088088aca3cf02');
    expect(bytes({ timeout: '0s' })).toBe('1a02' + '0800');
    expect(roundTrip({ timeout: '1h0m0.5s' })).toStrictEqual({ timeout: '1h0m0.5s' });
    expect(roundTrip({ timeout: '90m' })).toStrictEqual({ timeout: '1h30m0s' });
  });

  it('writes MicroTime with nanoseconds and Time with whole seconds', () => {
    // the same bytes as eventTime in the upstream core.v1.Event fixture
    expect(bytes({ eventTime: '2010-01-01T01:01:01.000010Z' })).toBe('2209' + '08cd92f5d904' + '10904e');
    expect(bytes({ created: '2008-01-01T01:01:01Z' })).toBe('5a08' + '08cda1e6bb04' + '1000');
    expect(roundTrip({ eventTime: '2010-01-01T01:01:01.123456Z', created: '2008-01-01T01:01:01.9Z' })).toStrictEqual({
      eventTime: '2010-01-01T01:01:01.123456Z',
      created: '2008-01-01T01:01:01Z',
    });
    // Go's zero time is JSON null and an empty message
    expect(bytes({ created: null, eventTime: null })).toBe('2200' + '5a00');
    expect(bytes({ created: '0001-01-01T00:00:00Z' })).toBe('5a00');
    expect(roundTrip({ created: null })).toStrictEqual({ created: null });
  });

  it('carries RawExtension as JSON bytes', () => {
    const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [] } };
    expect(bytes({ object: { a: 1 } })).toBe('2a09' + '0a07' + Buffer.from('{"a":1}').toString('hex'));
    expect(roundTrip({ object })).toStrictEqual({ object });
    expect(roundTrip({ object: null })).toStrictEqual({ object: null });
    expect(roundTrip({ object: 'text' })).toStrictEqual({ object: 'text' });
    const embedded = Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x0a);
    expect(roundTrip({ object: embedded })).toStrictEqual({ object: embedded });
  });

  it('flattens inline (embedded) structs and always writes them', () => {
    expect(bytes({ secretRef: { name: 'creds', optional: true } })).toBe('320b' + '0a07' + '0a05' + Buffer.from('creds').toString('hex') + '1001');
    expect(bytes({ secretRef: { optional: false } })).toBe('3204' + '0a00' + '1000');
    expect(roundTrip({ secretRef: { name: 'creds', optional: true } })).toStrictEqual({ secretRef: { name: 'creds', optional: true } });
    expect(roundTrip({ secretRef: {} })).toStrictEqual({ secretRef: {} });
  });

  it('carries list-wrapper messages as JSON arrays', () => {
    expect(bytes({ verbs: ['get', 'list'] })).toBe('720b' + '0a03676574' + '0a046c697374');
    expect(roundTrip({ verbs: ['get'], extra: { scopes: ['a', 'b'], none: [] } })).toStrictEqual({
      verbs: ['get'],
      extra: { none: [], scopes: ['a', 'b'] },
    });
    expect(() => codec.encode('test.v1.Sample', { verbs: 'get' })).toThrow('verbs: expected an array, got string');
  });

  it('writes present zero values and keeps them on decode', () => {
    expect(bytes({ count: 0, ratio: 0, groups: [] })).toBe('39' + '0000000000000000' + '6000');
    expect(roundTrip({ count: 0, ratio: 0.5, groups: [1, 2] })).toStrictEqual({ ratio: 0.5, groups: [1, 2], count: 0 });
  });

  it('writes repeated scalars unpacked unless the descriptor says packed, and reads both', () => {
    expect(bytes({ groups: [1, 2] })).toBe('4001' + '4002');
    expect(bytes({ weights: [1, 300] })).toBe('5203' + '01ac02');
    expect(roundTrip({ weights: [1, 300] })).toStrictEqual({ weights: [1, 300] });
    expect(codec.decode('test.v1.Sample', Uint8Array.from(Buffer.from('42020102', 'hex')))).toStrictEqual({ groups: [1, 2] });
    expect(codec.decode('test.v1.Sample', Uint8Array.from(Buffer.from('50015002', 'hex')))).toStrictEqual({ weights: [1, 2] });
  });

  it('skips unknown fields and decodes an empty message field to an object', () => {
    // field 99 (varint) is unknown; field 6 (secretRef) is present and empty
    expect(codec.decode('test.v1.Sample', Uint8Array.from(Buffer.from('98060132' + '00', 'hex')))).toStrictEqual({ secretRef: {} });
  });

  it('rejects malformed input with StatusErrors', () => {
    const error = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        if (isStatusError(err)) return [err.status.code, err.message];
      }
      return undefined;
    };
    expect(error(() => codec.decode('test.v1.Sample', Uint8Array.of(0x32, 0x05, 0x0a)))).toEqual([
      400, 'unable to decode Protobuf test.v1.Sample: unexpected end of message',
    ]);
    expect(error(() => codec.decode('test.v1.Sample', Uint8Array.of(0x60, 0x01, 0x32)))).toEqual([
      400, expect.stringMatching(/^unable to decode Protobuf test.v1.Sample: /),
    ]);
    expect(error(() => codec.decode('test.v1.Sample', Uint8Array.of(0x62, 0x00)))).toEqual([
      400, 'unable to decode Protobuf test.v1.Sample: wrong wire type 2 for field count',
    ]);
    expect(error(() => codec.encode('test.v1.Sample', { count: 'x' }))).toEqual([
      500, 'Internal error occurred: unable to encode test.v1.Sample as Protobuf: count: expected an integer, got string',
    ]);
    expect(error(() => codec.encode('test.v1.Sample', { secretRef: { name: 5 } }))).toEqual([
      500, 'Internal error occurred: unable to encode test.v1.Sample as Protobuf: secretRef.name: expected a string, got number',
    ]);
    expect(error(() => codec.encode('test.v1.Sample', { created: 'yesterday' }))).toEqual([
      500, 'Internal error occurred: unable to encode test.v1.Sample as Protobuf: created: parsing time "yesterday": not an RFC 3339 timestamp',
    ]);
    expect(error(() => codec.encode('test.v1.Nope', {}))).toEqual([500, expect.stringMatching(/unknown Protobuf message test.v1.Nope/)]);
  });
});

describe('createMessageCodec ConfigMap edge cases', () => {
  const codec = createMessageCodec(configMapDescriptor);
  const message = 'k8s.io.api.core.v1.ConfigMap';

  it('omits absent fields and keeps present empty strings and maps of empty values', () => {
    const obj = { metadata: { name: 'a', namespace: '' }, data: { k: '' }, binaryData: { b: '' } };
    expect(hex(codec.encode(message, obj))).toBe('0a05' + '0a0161' + '1a00' + '1205' + '0a016b' + '1200' + '1a05' + '0a0162' + '1200');
    expect(codec.decode(message, codec.encode(message, obj))).toStrictEqual(obj);
  });

  it('drops empty maps and lists, which the wire cannot carry', () => {
    const decoded = codec.decode(message, codec.encode(message, { metadata: { finalizers: [], labels: {} }, data: {} }));
    expect(decoded).toStrictEqual({ metadata: {} });
  });

  it('keeps __proto__ keys as data', () => {
    const data = JSON.parse('{"__proto__":"x"}') as Record<string, string>;
    const decoded = codec.decode(message, codec.encode(message, { data }));
    expect(Object.keys(decoded.data as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(decoded.data)).toBe(Object.prototype);
  });
});
