// Property-based fuzzing (fast-check) of what clients send: bodies in every media type and patches of every type.
// Whatever arrives, the answer is never a 5xx; a refusal is a kube Status with the response's code; what was
// accepted is stored intact and can be read back in every media type; and nothing reaches JavaScript's object
// machinery (no prototype gains or loses a property).
//
// FUZZ_RUNS=4000 (and FUZZ_SEED=n) run it harder; a failure prints its seed and the shrunk counterexample.
import { group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject, setOwn } from '@kapi/apimachinery';
import { Encoder } from 'cbor-x';
import fc from 'fast-check';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { decodeCbor, encodeCbor } from '../src/endpoints/media/cbor-codec.js';
import { toYaml as kubeYaml } from '../src/endpoints/media/yaml.js';
import { configMap, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const PB = 'application/vnd.kubernetes.protobuf';
const CBOR = 'application/cbor';
const YAML = 'application/yaml';
const JSON_TYPE = 'application/json';
const CM_MESSAGE = 'k8s.io.api.core.v1.ConfigMap';
const codec = createMessageCodec(core.protobuf);
const RUNS = {
  numRuns: Number(process.env.FUZZ_RUNS ?? 100),
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};
/** Milliseconds a property may take: a few per run, generously. */
const TIMEOUT = Math.max(20_000, RUNS.numRuns * 20);
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '..', '.', '..a', 'a b', '../../etc/passwd', ''];

/** An object with these own keys, `__proto__` included (an object literal or assignment would set the prototype). */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) setOwn(out, k, v);
  return out;
}

/** Lone UTF-16 surrogates: JSON can carry them (`"\ud800"`), UTF-8 cannot; kube (Go) reads them as U+FFFD. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Strings: ASCII (fast-check's default), any code point, graphemes, and ill-formed UTF-16 with control characters. */
const text = (maxLength: number) =>
  fc.oneof(
    { arbitrary: fc.string({ maxLength }), weight: 4 },
    { arbitrary: fc.string({ unit: 'binary', maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: fc.constantFrom('a', 'é', '\u0000', '\n', '"', '\\', '\u2028', '\ufeff', ': ', '#', '- ', '\u{1f600}'), maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom('a', 'é')), maxLength }), weight: 1 },
  );
const validKey = fc.stringMatching(/^[-._a-zA-Z0-9]{1,20}$/);
const key = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), text(12), validKey, fc.string({ unit: fc.constant('k'), minLength: 250, maxLength: 256 }));
const dataEntries = fc.uniqueArray(fc.tuple(key, text(30)), { selector: ([k]) => k, maxLength: 6 });

/** kube's IsConfigMapKey. */
const isConfigMapKey = (k: string) => k.length <= 253 && /^[-._a-zA-Z0-9]+$/.test(k) && k !== '.' && k !== '..' && !k.startsWith('..');
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const isWellFormed = (s: string) => s.replace(LONE_SURROGATES, '') === s;
/**
 * What the server stores of a string sent in `type`: JSON reads a lone surrogate as U+FFFD (as Go does); the
 * Protobuf and CBOR encoders used here write it as 3 bytes of CESU-8, each invalid UTF-8, so 3 U+FFFD.
 */
const stored = (type: string, s: string) => s.replace(LONE_SURROGATES, type === JSON_TYPE ? '\ufffd' : '\ufffd\ufffd\ufffd');
const storedData = (type: string, entries: [string, string][]) => ({ ...own(entries.map(([k, v]) => [stored(type, k), stored(type, v)])) });

interface BodyFormat {
  type: string;
  encode(obj: Record<string, unknown>): string | Uint8Array;
}
const FORMATS: BodyFormat[] = [
  { type: JSON_TYPE, encode: (o) => JSON.stringify(o) },
  // Written as a client of kube writes YAML: for a YAML 1.1 reader (`y`, `no` and `on` quoted), as kube's own YAML is.
  { type: YAML, encode: (o) => kubeYaml(o) },
  { type: PB, encode: (o) => encodeProtobufObject(codec, CM_MESSAGE, o) },
  { type: CBOR, encode: (o) => encodeCbor(o) },
];
const utf8 = new TextEncoder();
const bytesOf = (body: string | Uint8Array) => (typeof body === 'string' ? utf8.encode(body) : body);

/** Reads a response in the media type asked for into its JSON form. */
const READERS: Record<string, (bytes: Uint8Array) => any> = {
  [JSON_TYPE]: (b) => JSON.parse(new TextDecoder().decode(b)),
  [YAML]: (b) => parseYaml(new TextDecoder().decode(b)),
  [PB]: (b) => decodeProtobufObject(codec, CM_MESSAGE, b),
  [CBOR]: (b) => decodeCbor(b),
};

let h: Harness;
let serial = 0;
const nextName = () => `f${++serial}`;

async function send(method: string, path: string, body: string | Uint8Array, contentType: string) {
  const res = await h.server.fetch(new Request(`http://kapi.test${path}`, { method, body, headers: { 'content-type': contentType, accept: JSON_TYPE } }));
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** Never a 5xx; a refusal is a Status carrying the same code. */
function expectSaneAnswer(res: { status: number; body: any }) {
  expect(res.status).toBeLessThan(500);
  expect(res.status).toBeGreaterThanOrEqual(200);
  if (res.status >= 400) expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: res.status });
}

/**
 * The stored ConfigMap `name`, read in every media type: 200, well-formed, `data` and `binaryData` values all
 * strings, and the same data whatever the encoding. Returns the JSON form.
 */
async function expectReadable(name: string): Promise<any> {
  let json: any;
  for (const accept of [JSON_TYPE, YAML, PB, CBOR]) {
    const res = await h.server.fetch(new Request(`http://kapi.test${CM}/${name}`, { headers: { accept } }));
    expect([accept, res.status]).toEqual([accept, 200]);
    const obj = READERS[accept](new Uint8Array(await res.arrayBuffer()));
    expect(obj).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'default' } });
    for (const field of ['data', 'binaryData']) {
      if (obj[field] === undefined) continue;
      expect(Object.getPrototypeOf(obj[field]) === Object.prototype || Object.getPrototypeOf(obj[field]) === null).toBe(true);
      expect(Object.values(obj[field]).every((v) => typeof v === 'string')).toBe(true);
    }
    if (accept === JSON_TYPE) json = obj;
    // Protobuf cannot tell an empty map from none.
    else expect([accept, obj.data ?? {}]).toEqual([accept, json.data ?? {}]);
  }
  return json;
}

/** Every own property of the built-in prototypes a polluting write would change. */
const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype };
const snapshotPrototypes = () => Object.fromEntries(Object.entries(PROTOTYPES).map(([n, p]) => [n, Reflect.ownKeys(p).map(String).sort()]));
let prototypesBefore: ReturnType<typeof snapshotPrototypes>;
function expectNoPollution() {
  const polluted = ({} as Record<string, unknown>).polluted;
  const after = snapshotPrototypes();
  // Undo what a polluting write added, so that later runs, and fast-check's shrinking, start clean.
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    for (const key of Reflect.ownKeys(proto)) if (!prototypesBefore[name].includes(String(key))) delete (proto as Record<PropertyKey, unknown>)[key];
  }
  expect(polluted).toBeUndefined();
  expect(after).toEqual(prototypesBefore);
}

/** Random edits of a valid encoding: flipped, dropped, inserted bytes and truncation, so decoders get past the first byte. */
const edit = fc.record({ at: fc.nat(), op: fc.constantFrom('set', 'delete', 'insert', 'truncate'), byte: fc.integer({ min: 0, max: 255 }) });
function mutate(bytes: Uint8Array, edits: { at: number; op: string; byte: number }[]): Uint8Array {
  let out = Array.from(bytes);
  for (const { at, op, byte } of edits) {
    const i = out.length ? at % out.length : 0;
    if (op === 'set') out[i] = byte;
    else if (op === 'delete') out.splice(i, 1);
    else if (op === 'insert') out.splice(i, 0, byte);
    else out = out.slice(0, i);
  }
  return Uint8Array.from(out);
}

/** A CBOR encoder that writes whatever JavaScript holds (Maps with any keys, Sets, Dates, bigints, typed arrays, undefined). */
const rawCbor = new Encoder({ useRecords: false, mapsAsObjects: false, structuredClone: false });
/** An encoding of a generated value, or its JSON when the format cannot hold it (Protobuf refuses unknown shapes). */
function safeEncode(encode: () => string | Uint8Array, fallback: unknown): string | Uint8Array {
  try {
    return encode();
  } catch {
    try {
      return JSON.stringify(fallback) ?? 'null';
    } catch {
      return 'null';
    }
  }
}

describe('fuzzing (fast-check)', () => {
  beforeAll(async () => {
    h = await startHarness({ CBORServingAndStorage: true });
  });
  beforeEach(() => {
    prototypesBefore = snapshotPrototypes();
  });
  afterEach(() => {
    expectNoPollution();
  });

  it('ConfigMaps with any keys and values, created and replaced in JSON, YAML, Protobuf and CBOR: stored intact or refused with a Status', async () => {
    await fc.assert(
      fc.asyncProperty(dataEntries, dataEntries, fc.constantFrom(...FORMATS), async (entries, replacement, format) => {
        const name = nextName();
        const write = async (method: 'POST' | 'PUT', wanted: [string, string][]) => {
          const data = own(wanted);
          const res = await send(method, method === 'POST' ? CM : `${CM}/${name}`, format.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }), format.type);
          expectSaneAnswer(res);
          if (format.type === YAML && !wanted.every(([k, v]) => isWellFormed(k) && isWellFormed(v))) {
            // Only escapes write a lone surrogate in YAML, and yaml.v2 refuses them.
            expect([res.status, res.body.message]).toEqual([400, 'error decoding YAML: found invalid Unicode character escape code']);
            return false;
          }
          if (res.status === (method === 'POST' ? 201 : 200)) {
            expect(wanted.every(([k]) => isConfigMapKey(k))).toBe(true);
            expect(res.body.data ?? {}).toEqual(storedData(format.type, wanted));
            const read = await expectReadable(name);
            expect(read.data ?? {}).toEqual(storedData(format.type, wanted));
            return true;
          }
          // The only reason to refuse these: a key that is not a ConfigMap key.
          expect([format.type, res.status, res.body.reason]).toEqual([format.type, 422, 'Invalid']);
          expect(wanted.some(([k]) => !isConfigMapKey(k))).toBe(true);
          return false;
        };
        if (!(await write('POST', entries))) return;
        await write('PUT', replacement);
        expectNoPollution();
      }),
      RUNS,
    );
  }, TIMEOUT);

  it('any JSON value, any JavaScript value in CBOR and YAML, mutated encodings and raw bytes as a create or replace body: never a 5xx', async () => {
    await h.req('POST', CM, configMap('target'));
    const valid = fc.tuple(fc.constantFrom(...FORMATS), dataEntries).map(([f, entries]) => ({ f, obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: own(entries) } }));
    const bodies = fc.oneof(
      fc.jsonValue().map((v) => ({ bytes: JSON.stringify(v) as string | Uint8Array, type: JSON_TYPE })),
      // Hostile and unknown keys (in any script: warnings quote them) as JSON text, where they are keys and not the prototype.
      fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), text(8)), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', 'metadata', 'data')).map(([k, v, under]) => ({
        bytes: under ? `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"target"},"${under}":{${JSON.stringify(k)}:${JSON.stringify(v)}}}` : `{"metadata":{"name":"target"},${JSON.stringify(k)}:${JSON.stringify(v)}}`,
        type: JSON_TYPE,
      })),
      fc.anything({ maxDepth: 3, withMap: true, withSet: true, withBigInt: true, withDate: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withBoxedValues: true })
        .chain((v) => fc.constantFrom(CBOR, YAML).map((type) => ({ v, type })))
        .map(({ v, type }) => ({ bytes: safeEncode(() => (type === CBOR ? rawCbor.encode(v) : toYaml(v)), v), type })),
      fc.tuple(fc.constantFrom(...FORMATS), fc.object({ maxDepth: 3 })).map(([f, o]) => ({ bytes: safeEncode(() => f.encode({ apiVersion: 'v1', kind: 'ConfigMap', ...o }), o), type: f.type })),
      fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([{ f, obj }, edits]) => ({ bytes: mutate(bytesOf(safeEncode(() => f.encode(obj), obj)), edits), type: f.type })),
      fc.tuple(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(JSON_TYPE, YAML, PB, CBOR)).map(([bytes, type]) => ({ bytes, type })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom('POST', 'PUT'), async ({ bytes, type }, method) => {
        const res = await send(method, method === 'POST' ? CM : `${CM}/target`, bytes, type);
        expectSaneAnswer(res);
        if (res.status < 300) await expectReadable(res.body.metadata.name);
        expectNoPollution();
      }),
      RUNS,
    );
    await expectReadable('target');
  }, TIMEOUT);

  it('patches of every type with any paths and values: never a 5xx, and the object stays a valid ConfigMap', async () => {
    const segment = fc.oneof(fc.constantFrom('data', 'metadata', 'labels', 'annotations', 'binaryData', 'a', '__proto__', 'constructor', 'prototype', '-', '0', '~1', '~0', '~', 'polluted'), fc.string({ maxLength: 6 }));
    // Paths that would pollute a prototype if a patch walked into one, prefixed or not by a real field.
    const pollution = fc.tuple(fc.constantFrom('', '/data', '/metadata', '/metadata/labels'), fc.constantFrom('/__proto__', '/constructor/prototype', '/__proto__/__proto__')).map(([at, via]) => `${at}${via}/polluted`);
    const pointer = fc.oneof(
      { arbitrary: fc.array(segment, { maxLength: 4 }).map((parts) => parts.map((p) => `/${p}`).join('')), weight: 3 },
      { arbitrary: pollution, weight: 2 },
      { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
    );
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.constantFrom('{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"a":"1","__proto__":"x"}'),
    );
    const op = fc.oneof(
      { arbitrary: fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'), path: pointer, from: pointer, value }), weight: 4 },
      { arbitrary: fc.record({ op: fc.string({ maxLength: 8 }), path: pointer, from: pointer, value }, { requiredKeys: [] }), weight: 1 },
    );
    // JSON patch ops written as text, so that values can hold `__proto__` keys.
    const jsonPatchText = (ops: { op?: string; path?: string; from?: string; value?: string }[]) =>
      `[${ops.map((o) => `{${Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}:${k === 'value' ? v : JSON.stringify(v)}`).join(',')}}`).join(',')}]`;
    const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\n';
    const hostileYaml = fc.tuple(fc.constantFrom(...HOSTILE_KEYS, '<<'), fc.constantFrom('data', 'metadata', 'labels')).map(([k, under]) => {
      const q = JSON.stringify(k);
      if (under === 'data') return `${head}data:\n  ${q}: x\n`;
      if (under === 'metadata') return `${head}  ${q}: {polluted: yes}\n`;
      return `${head}  labels:\n    ${q}: {polluted: yes}\n`;
    });
    const yamlTricks = fc.constantFrom(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata: &d {a: "1"}\nbinaryData: *d\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\n  labels: &l {x: y}\ndata:\n  <<: *l\n  __proto__: {polluted: yes}\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata:\n  a: !!binary aGVsbG8=\n  b: !!timestamp 2001-12-14\n  c: !!set {x}\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata:\n  ? [a, b]\n  : c\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata: !!omap [{a: "1"}]\n',
      '%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata:\n  <<: {polluted: "yes"}\n',
      '--- !!map\n? !!str apiVersion\n: v1\nkind: ConfigMap\nmetadata: {name: patched}\ndata: {a: 1, b: true, c: null, d: 1e400, e: .nan}\n',
    );
    const patches = fc.oneof(
      { arbitrary: fc.array(op, { maxLength: 4 }).map((ops) => ({ type: 'application/json-patch+json', body: jsonPatchText(ops) as string | Uint8Array })), weight: 4 },
      fc.jsonValue({ maxDepth: 3 }).map((v) => ({ type: 'application/merge-patch+json', body: JSON.stringify(v) as string | Uint8Array })),
      // Unknown fields in any script, at the top and in metadata.
      fc.tuple(text(8), fc.constantFrom('merge', 'strategic-merge')).map(([k, kind]) => ({ type: `application/${kind}-patch+json`, body: JSON.stringify({ metadata: { [k]: 'x' }, [k]: 'y' }) as string | Uint8Array })),
      fc.jsonValue({ maxDepth: 3 }).map((v) => ({ type: 'application/strategic-merge-patch+json', body: JSON.stringify(v) as string | Uint8Array })),
      fc.tuple(dataEntries, fc.constantFrom('merge', 'strategic-merge')).map(([entries, kind]) => ({ type: `application/${kind}-patch+json`, body: JSON.stringify({ data: own(entries) }) as string | Uint8Array })),
      fc.object({ maxDepth: 2 }).map((o) => ({
        type: 'application/apply-patch+yaml',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, ...o }) as string | Uint8Array,
      })),
      fc.tuple(dataEntries, fc.constantFrom('yaml', 'cbor')).map(([entries, kind]) => {
        const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, data: own(entries) };
        return { type: `application/apply-patch+${kind}`, body: kind === 'yaml' ? kubeYaml(obj) : encodeCbor(obj) };
      }),
      fc.oneof(hostileYaml, yamlTricks).map((body) => ({ type: 'application/apply-patch+yaml', body: body as string | Uint8Array })),
      fc.anything({ maxDepth: 2, withMap: true, withBigInt: true, withTypedArray: true }).map((v) => ({
        type: 'application/apply-patch+cbor',
        body: safeEncode(() => rawCbor.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, data: v }), v),
      })),
      // Hostile keys in patch bodies, written as text so that `__proto__` is a key.
      fc.tuple(fc.constantFrom('merge-patch', 'strategic-merge-patch'), fc.constantFrom(...HOSTILE_KEYS, '$patch', '$retainKeys', '$setElementOrder/data', '$deleteFromPrimitiveList/finalizers')).map(([kind, k]) => ({
        type: `application/${kind}+json`,
        body: `{"data":{${JSON.stringify(k)}:"x"},"metadata":{${JSON.stringify(k)}:{"polluted":"yes"}},${JSON.stringify(k)}:${k.startsWith('$') ? '"replace"' : '{"polluted":"yes"}'}}`,
      })),
    );
    await h.req('POST', CM, configMap('patched', { a: '1' }));
    await fc.assert(
      fc.asyncProperty(patches, fc.constantFrom('', '&force=true', '&fieldValidation=Strict'), async ({ type, body }, extra) => {
        const res = await send('PATCH', `${CM}/patched?fieldManager=f${type.startsWith('application/apply') ? extra : ''}`, body, type);
        expectSaneAnswer(res);
        if (res.status < 300) expect(res.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'patched' } });
        const read = await expectReadable('patched');
        expect(Array.isArray(read.metadata.managedFields ?? [])).toBe(true);
        expect(Object.keys(read.data ?? {}).every(isConfigMapKey)).toBe(true);
        expectNoPollution();
      }),
      RUNS,
    );
  }, TIMEOUT);
});
