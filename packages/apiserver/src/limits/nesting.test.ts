import { describe, expect, it } from 'vitest';
import { checkDecoded, checkIntegerLiterals, checkYamlDepth, MAX_NESTING_DEPTH } from './nesting.js';

const messageOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as { status?: { message: string } }).status?.message ?? String(err);
  }
};

describe('checkYamlDepth', () => {
  it('lets documents nest up to the limit, in flow and block style', () => {
    expect(messageOf(() => checkYamlDepth(`a: ${'['.repeat(MAX_NESTING_DEPTH - 1)}${']'.repeat(MAX_NESTING_DEPTH - 1)}`))).toBe('ok');
    expect(messageOf(() => checkYamlDepth(`${'- '.repeat(MAX_NESTING_DEPTH)}x`))).toBe('ok');
    expect(messageOf(() => checkYamlDepth('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n'))).toBe('ok');
  });

  it('refuses deeper ones before they are composed', () => {
    const error = `error decoding YAML: exceeded max depth of ${MAX_NESTING_DEPTH}`;
    expect(messageOf(() => checkYamlDepth(`a: ${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`))).toBe(error);
    expect(messageOf(() => checkYamlDepth(`${'- '.repeat(100_000)}x`))).toBe(error);
    expect(messageOf(() => checkYamlDepth(Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')))).toBe(error);
  });
});

describe('checkDecoded', () => {
  it('turns what CBOR decodes beyond JSON into JSON values', () => {
    expect(checkDecoded({ a: 5n, b: new TextEncoder().encode('hé'), c: [undefined] }, 'CBOR')).toEqual({ a: 5, b: 'hé', c: [null] });
    expect(checkDecoded(-(2n ** 53n - 1n), 'CBOR')).toBe(-(2 ** 53 - 1));
  });

  it('refuses numbers JSON cannot carry, integers beyond int64 and other values', () => {
    expect(messageOf(() => checkDecoded({ a: [Infinity] }, 'JSON'))).toBe('error decoding JSON: number Infinity has no JSON representation');
    expect(messageOf(() => checkDecoded({ a: 2 ** 64 }, 'YAML'))).toBe('error decoding YAML: number 18446744073709552000 overflows int64');
    expect(messageOf(() => checkDecoded({ a: 2n ** 63n }, 'CBOR'))).toBe('error decoding CBOR: integer 9223372036854775808 overflows int64');
    expect(messageOf(() => checkDecoded({ a: new Set() }, 'CBOR'))).toMatch(/^error decoding CBOR: unsupported value/);
    // CBOR maps (decoded as Map) are objects with string keys, `__proto__` an own key like any other.
    expect(messageOf(() => checkDecoded({ a: new Map([[1, 'x']]) }, 'CBOR'))).toBe('error decoding CBOR: map key "1" is not a string');
    const converted = checkDecoded(new Map([['__proto__', new Map([['b', 1]])]]), 'CBOR') as Record<string, unknown>;
    expect(Object.keys(converted)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(converted, '__proto__')?.value).toEqual({ b: 1 });
    expect(messageOf(() => checkDecoded({ max: 9223372036854775807, min: -9223372036854775808 }, 'JSON'))).toBe('ok');
  });

  it('reads lone UTF-16 surrogates in JSON strings and keys as U+FFFD, as Go does, and refuses them in YAML', () => {
    // JSON.parse keeps them; UTF-8 (Protobuf, CBOR, storage) cannot: the same object would read two ways.
    const parsed = JSON.parse('{"a":"x\\ud800y","\\udc00":["\\ud83d"],"pair":"\\ud83d\\ude00","\\ud800\\ud800":"z"}');
    expect(checkDecoded(parsed, 'JSON')).toEqual({ a: 'x\ufffdy', '\ufffd': ['\ufffd'], pair: '\u{1f600}', '\ufffd\ufffd': 'z' });
    expect(Object.keys(parsed)).toEqual(['a', '\ufffd', 'pair', '\ufffd\ufffd']);
    expect(checkDecoded('\udfff', 'JSON')).toBe('\ufffd');
    // Keys that read the same: the later wins, as in Go's decoding into a map.
    expect(checkDecoded(JSON.parse('{"\\ud800":"a","\\ufffd":"b"}'), 'JSON')).toEqual({ '\ufffd': 'b' });
    const proto = checkDecoded(JSON.parse('{"\\ud800":1,"__proto__":{"x":"\\ud800"}}'), 'JSON') as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual({ x: '\ufffd' });
    expect(messageOf(() => checkDecoded({ a: ['x\ud800'] }, 'YAML'))).toBe('error decoding YAML: found invalid Unicode character escape code');
    expect(messageOf(() => checkDecoded({ '\udc00': 1 }, 'YAML'))).toBe('error decoding YAML: found invalid Unicode character escape code');
    expect(messageOf(() => checkDecoded({ a: 'é \u{1f600}' }, 'YAML'))).toBe('ok');
  });

  it('bounds depth, cycles included', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) deep = [deep];
    expect(messageOf(() => checkDecoded(deep, 'JSON'))).toBe('ok');
    expect(messageOf(() => checkDecoded([deep], 'JSON'))).toBe(`error decoding JSON: exceeded max depth of ${MAX_NESTING_DEPTH}`);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(messageOf(() => checkDecoded(cycle, 'YAML'))).toBe(`error decoding YAML: exceeded max depth of ${MAX_NESTING_DEPTH}`);
  });
});

describe('integers a double cannot hold exactly', () => {
  const inexact = (format: string, literal: string) => `error decoding ${format}: integer ${literal} exceeds the precision of JSON numbers (2^53 - 1)`;

  it('are refused in a JSON text, where JSON.parse would round them or they would be written back in other digits', () => {
    expect(messageOf(() => checkIntegerLiterals('{"a":[1,9007199254740993]}', 'JSON'))).toBe(inexact('JSON', '9007199254740993'));
    expect(messageOf(() => checkIntegerLiterals('{"a":1152921504606846976}', 'JSON'))).toBe(inexact('JSON', '1152921504606846976'));
    expect(messageOf(() => checkIntegerLiterals('{"a": -12345678901234567}', 'YAML'))).toBe(inexact('YAML', '-12345678901234567'));
  });

  it('are not those within ±(2^53-1), nor digits in strings, nor floats', () => {
    for (const text of ['{"a":9007199254740991}', '{"a":-9007199254740991}', '{"a":"12345678901234567890"}', '{"a\\":"\\"12345678901234567"}', '{"a":1.2345678901234567}', '{"a":12345678901234567e2}', '{"a":1234567}']) {
      expect(messageOf(() => checkIntegerLiterals(text, 'JSON')), text).toBe('ok');
    }
  });

  it('are refused as bigints (YAML and CBOR decode integers so)', () => {
    expect(messageOf(() => checkDecoded({ a: [2n ** 53n] }, 'CBOR'))).toBe(inexact('CBOR', '9007199254740992'));
    expect(checkDecoded({ a: 2n ** 53n - 1n, b: -(2n ** 53n - 1n) }, 'YAML')).toEqual({ a: 2 ** 53 - 1, b: -(2 ** 53 - 1) });
  });
});

