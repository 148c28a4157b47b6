// Types whose JSON form is not their Protobuf message, beyond apimachinery's: apiextensions' JSON (any JSON value as
// bytes), the unions of JSONSchemaProps (JSONSchemaPropsOrBool, ...: option kapi_one_of) and Go's non-pointer
// omitempty scalars (option kapi_omit_zero). Expected bytes follow upstream's generated.pb.go: fields in number
// order, JSONSchemaPropsOrBool's `allows` always written, a non-pointer string (`type`) always written.
import { describe, expect, it } from 'vitest';
import { nest } from '../../test/descriptors.js';
import { isStatusError } from '../errors/status-error.js';
import { createMessageCodec } from './codec.js';
import type { ProtoDescriptorType } from './types.js';

const AX = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const PROPS = `${AX}.JSONSchemaProps`;
const ref = (name: string) => `.${AX}.${name}`;

// A part of JSONSchemaProps, numbered as upstream's generated.proto.
const messages: Record<string, ProtoDescriptorType> = {
  [PROPS]: {
    fields: {
      type: { type: 'string', id: 5, options: { kapi_omit_zero: true } },
      default: { type: ref('JSON'), id: 8 },
      enum: { type: ref('JSON'), id: 20, rule: 'repeated' },
      items: { type: ref('JSONSchemaPropsOrArray'), id: 24 },
      properties: { type: ref('JSONSchemaProps'), keyType: 'string', id: 29 },
      additionalProperties: { type: ref('JSONSchemaPropsOrBool'), id: 30 },
      dependencies: { type: ref('JSONSchemaPropsOrStringArray'), keyType: 'string', id: 32 },
    },
  },
  [`${AX}.JSON`]: { fields: { raw: { type: 'bytes', id: 1 } } },
  [`${AX}.JSONSchemaPropsOrBool`]: {
    fields: { boolean: { type: 'bool', id: 1 }, object: { type: ref('JSONSchemaProps'), id: 2 } },
    options: { kapi_one_of: true },
  },
  [`${AX}.JSONSchemaPropsOrArray`]: {
    fields: { object: { type: ref('JSONSchemaProps'), id: 1 }, array: { type: ref('JSONSchemaProps'), id: 2, rule: 'repeated' } },
    options: { kapi_one_of: true },
  },
  [`${AX}.JSONSchemaPropsOrStringArray`]: {
    fields: { object: { type: ref('JSONSchemaProps'), id: 1 }, array: { type: 'string', id: 2, rule: 'repeated' } },
    options: { kapi_one_of: true },
  },
  // A union whose field is not named after a JSON type.
  [`${AX}.Broken`]: { fields: { schema: { type: ref('JSONSchemaProps'), id: 1 } }, options: { kapi_one_of: true } },
  [`${AX}.UsesBroken`]: { fields: { broken: { type: ref('Broken'), id: 1 } } },
};

const codec = createMessageCodec(nest(messages));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const encode = (obj: Record<string, unknown>): string => hex(codec.encode(PROPS, obj));
const decode = (h: string): Record<string, unknown> => codec.decode(PROPS, Uint8Array.from(Buffer.from(h.replace(/ /g, ''), 'hex')));
const failure = (fn: () => unknown): [number, string] | undefined => {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return [err.status.code!, err.message];
    throw err;
  }
  return undefined;
};

// Go always writes JSONSchemaProps.type (a non-pointer string): an empty one is `2a 00`.
const NO_TYPE = '2a00';
const TYPE_STRING = '2a06' + hex(Buffer.from('string'));

/** Both ways: the JSON encodes to these bytes, and the bytes decode to the JSON. */
function both(json: Record<string, unknown>, bytes: string): void {
  expect(encode(json)).toBe(bytes.replace(/ /g, ''));
  expect(decode(bytes)).toStrictEqual(json);
}

describe('JSONSchemaPropsOrBool (additionalProperties)', () => {
  it('writes true and false as allows, always', () => {
    both({ additionalProperties: true }, `${NO_TYPE} f201 02 0801`);
    both({ additionalProperties: false }, `${NO_TYPE} f201 02 0800`);
  });

  it('writes a schema with allows true, as Go unmarshals one', () => {
    both({ additionalProperties: { type: 'string' } }, `${NO_TYPE} f201 0c 0801 1208 ${TYPE_STRING}`);
    both({ additionalProperties: {} }, `${NO_TYPE} f201 06 0801 1202 ${NO_TYPE}`);
  });

  it('reads what Go writes: a schema wins over allows, an empty message is false', () => {
    expect(decode(`${NO_TYPE} f201 04 1202 ${NO_TYPE}`)).toStrictEqual({ additionalProperties: {} });
    expect(decode(`${NO_TYPE} f201 06 0800 1202 ${NO_TYPE}`)).toStrictEqual({ additionalProperties: {} });
    expect(decode(`${NO_TYPE} f201 00`)).toStrictEqual({ additionalProperties: false });
  });

  it('leaves a null field out (Go: a nil pointer)', () => {
    expect(encode({ additionalProperties: null })).toBe(NO_TYPE);
  });

  it('refuses a value of another JSON type', () => {
    expect(failure(() => encode({ additionalProperties: 'yes' }))).toEqual([
      500,
      `Internal error occurred: unable to encode ${PROPS} as Protobuf: additionalProperties: expected a boolean or an object, got string`,
    ]);
  });
});

describe('JSONSchemaPropsOrArray (items)', () => {
  it('writes a schema as field 1 and an array as repeated field 2', () => {
    both({ items: { type: 'string' } }, `${NO_TYPE} c201 0a 0a08 ${TYPE_STRING}`);
    both({ items: [{}, { type: 'string' }] }, `${NO_TYPE} c201 0e 1202 ${NO_TYPE} 1208 ${TYPE_STRING}`);
  });

  it('reads an empty union as null, as Go marshals one (an empty array included)', () => {
    expect(encode({ items: [] })).toBe(`${NO_TYPE}c20100`);
    expect(decode(`${NO_TYPE} c201 00`)).toStrictEqual({ items: null });
  });

  it('prefers the array when both fields are present', () => {
    expect(decode(`${NO_TYPE} c201 08 0a02 ${NO_TYPE} 1202 ${NO_TYPE}`)).toStrictEqual({ items: [{}] });
  });

  it('writes a null element as the zero schema, as Go decodes it', () => {
    expect(encode({ items: [null] })).toBe(`${NO_TYPE}c201041202${NO_TYPE}`);
  });

  it('refuses a value of another JSON type', () => {
    expect(failure(() => encode({ items: true }))?.[1]).toContain('items: expected an object or an array, got boolean');
  });
});

describe('JSONSchemaPropsOrStringArray (dependencies values)', () => {
  it('writes map values as a schema or the strings, keys sorted', () => {
    both(
      { dependencies: { a: { type: 'string' }, b: ['x'] } },
      `${NO_TYPE} 8202 0f 0a0161 120a 0a08 ${TYPE_STRING} 8202 08 0a0162 1203 120178`,
    );
  });

  it('writes a null or empty value as an empty union, read back as null', () => {
    expect(encode({ dependencies: { a: null } })).toBe(`${NO_TYPE}8202050a01611200`);
    expect(encode({ dependencies: { a: [] } })).toBe(`${NO_TYPE}8202050a01611200`);
    expect(decode(`${NO_TYPE} 8202 05 0a0161 1200`)).toStrictEqual({ dependencies: { a: null } });
    expect(decode(`${NO_TYPE} 8202 03 0a0161`)).toStrictEqual({ dependencies: { a: null } });
  });
});

describe('JSON (default, example, enum)', () => {
  const raw = (text: string) => {
    const bytes = hex(Buffer.from(text));
    const body = `0a${(bytes.length / 2).toString(16).padStart(2, '0')}${bytes}`;
    return { body, length: (body.length / 2).toString(16).padStart(2, '0') };
  };

  it('writes any JSON value as its compact JSON text', () => {
    for (const value of ['x', 42, 1.5, true, { a: [1, null, 'b'] }, ['a']]) {
      const { body, length } = raw(JSON.stringify(value));
      both({ default: value }, `${NO_TYPE} 42${length} ${body}`);
    }
  });

  it('writes a null enum entry as an empty message and reads it back as null', () => {
    const a = raw('"a"');
    both({ enum: ['a', null, 1] }, `${NO_TYPE} a201${a.length}${a.body} a201 00 a201 03 0a0131`);
  });

  it('leaves a null field out (Go: a nil *JSON), and reads an empty message or empty bytes as null', () => {
    expect(encode({ default: null })).toBe(NO_TYPE);
    expect(decode(`${NO_TYPE} 4200`)).toStrictEqual({ default: null });
    expect(decode(`${NO_TYPE} 4202 0a00`)).toStrictEqual({ default: null });
  });

  it('refuses bytes that are not JSON', () => {
    expect(failure(() => decode(`${NO_TYPE} 4203 0a01 7b`))).toEqual([400, `unable to decode Protobuf ${PROPS}: raw of JSON is not a JSON value`]);
  });
});

describe('Go non-pointer omitempty scalars (kapi_omit_zero)', () => {
  it('writes the zero value when absent or null, and leaves a zero value out of the JSON', () => {
    expect(encode({})).toBe(NO_TYPE);
    expect(encode({ type: null })).toBe(NO_TYPE);
    expect(encode({ type: '' })).toBe(NO_TYPE);
    expect(decode(NO_TYPE)).toStrictEqual({});
    expect(decode('')).toStrictEqual({});
    both({ type: 'string' }, TYPE_STRING);
  });

  it('applies inside maps of messages', () => {
    both({ properties: { a: {} } }, `${NO_TYPE} ea01 07 0a0161 1202 ${NO_TYPE}`);
  });
});

describe('union descriptors', () => {
  it('name their fields after the JSON type they carry', () => {
    expect(failure(() => codec.encode(`${AX}.UsesBroken`, { broken: {} }))?.[1]).toContain(
      `${AX}.Broken: a union's fields are a bool named boolean, a message or map named object and a repeated field named array; not schema`,
    );
  });
});
