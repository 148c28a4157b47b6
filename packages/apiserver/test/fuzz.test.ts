// Property-based fuzzing (fast-check) of what clients send: bodies in every media type and patches of every type.
// Whatever arrives, the answer is never a 5xx; a refusal is a kube Status with the response's code; what was
// accepted is stored intact; and nothing reaches JavaScript's object machinery.
import { group as core } from '@kapi/api-core';
import { createMessageCodec, encodeProtobufObject } from '@kapi/apimachinery';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { encodeCbor } from '../src/endpoints/media/cbor-codec.js';
import { configMap, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const PB = 'application/vnd.kubernetes.protobuf';
const codec = createMessageCodec(core.protobuf);
const RUNS = { numRuns: 60 };
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '..', '.', 'a b', '../../etc/passwd', ''];

/** An object with these own keys, `__proto__` included (an object literal or assignment would set the prototype). */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

const key = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 12 }), fc.stringMatching(/^[-._a-zA-Z0-9]{1,20}$/));
const dataEntries = fc.uniqueArray(fc.tuple(key, fc.string({ maxLength: 30 })), { selector: ([k]) => k, maxLength: 6 });

interface BodyFormat {
  type: string;
  encode(obj: Record<string, unknown>): string | Uint8Array;
}
const FORMATS: BodyFormat[] = [
  { type: 'application/json', encode: (o) => JSON.stringify(o) },
  { type: 'application/yaml', encode: (o) => toYaml(o) },
  { type: PB, encode: (o) => encodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMap', o) },
  { type: 'application/cbor', encode: (o) => encodeCbor(o) },
];

let h: Harness;
let serial = 0;
const nextName = () => `f${++serial}`;

async function send(method: string, path: string, body: string | Uint8Array, contentType: string) {
  const res = await h.server.fetch(new Request(`http://kapi.test${path}`, { method, body, headers: { 'content-type': contentType, accept: 'application/json' } }));
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
  if (res.status >= 400) expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code: res.status });
}

const polluted = () => ({}) as Record<string, unknown>;

describe('fuzzing (fast-check)', () => {
  beforeAll(async () => {
    h = await startHarness({ CBORServingAndStorage: true });
  });

  it('ConfigMaps with any keys and values, in JSON, YAML, Protobuf and CBOR: stored intact or refused with a Status', async () => {
    await fc.assert(
      fc.asyncProperty(dataEntries, fc.constantFrom(...FORMATS), async (entries, format) => {
        const name = nextName();
        const data = own(entries);
        const res = await send('POST', CM, format.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }), format.type);
        expectSaneAnswer(res);
        if (res.status === 201) {
          const read = await h.req('GET', `${CM}/${name}`);
          // Protobuf cannot tell an empty map from none.
          expect(read.body.data ?? {}).toEqual(JSON.parse(JSON.stringify(data)));
        } else {
          expect(res.status).toBe(422);
          expect(entries.some(([k]) => !/^[-._a-zA-Z0-9]+$/.test(k) || k === '.' || k === '..' || k.startsWith('..'))).toBe(true);
        }
        expect(polluted().polluted).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('any JSON value, and any bytes in any media type, as a create or replace body: never a 5xx', async () => {
    await h.req('POST', CM, configMap('target'));
    const bodies = fc.oneof(
      fc.jsonValue().map((v) => ({ bytes: JSON.stringify(v) as string | Uint8Array, type: 'application/json' })),
      fc.tuple(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('application/json', 'application/yaml', PB, 'application/cbor')).map(([bytes, type]) => ({ bytes, type })),
      fc.tuple(fc.constantFrom(...FORMATS), fc.object({ maxDepth: 3 })).map(([f, o]) => ({ bytes: safeEncode(f, { apiVersion: 'v1', kind: 'ConfigMap', ...o }), type: f.type })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom('POST', 'PUT'), async ({ bytes, type }, method) => {
        const res = await send(method, method === 'POST' ? CM : `${CM}/target`, bytes, type);
        expectSaneAnswer(res);
      }),
      RUNS,
    );
    const target = await h.req('GET', `${CM}/target`);
    expect(target.status).toBe(200);
    expect(Object.values(target.body.data ?? {}).every((v) => typeof v === 'string')).toBe(true);
    expect(polluted().polluted).toBeUndefined();
  });

  it('patches of every type with any paths and values: never a 5xx, and the object stays a valid ConfigMap', async () => {
    const segment = fc.oneof(fc.constantFrom('data', 'metadata', 'labels', 'a', '__proto__', 'constructor', 'prototype', '-', '0', '~1', 'polluted'), fc.string({ maxLength: 6 }));
    const pointer = fc.array(segment, { maxLength: 4 }).map((parts) => parts.map((p) => `/${p}`).join(''));
    const op = fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
      path: pointer,
      from: pointer,
      value: fc.jsonValue({ maxDepth: 2 }),
    });
    const patches = fc.oneof(
      fc.array(op, { maxLength: 4 }).map((ops) => ({ type: 'application/json-patch+json', body: JSON.stringify(ops) })),
      fc.jsonValue({ maxDepth: 3 }).map((v) => ({ type: 'application/merge-patch+json', body: JSON.stringify(v) })),
      fc.jsonValue({ maxDepth: 3 }).map((v) => ({ type: 'application/strategic-merge-patch+json', body: JSON.stringify(v) })),
      fc.object({ maxDepth: 2 }).map((o) => ({
        type: 'application/apply-patch+yaml',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, ...o }),
      })),
      // Hostile keys in patch bodies, written as text so that `__proto__` is a key.
      fc.tuple(fc.constantFrom('merge-patch', 'strategic-merge-patch'), fc.constantFrom(...HOSTILE_KEYS)).map(([kind, k]) => ({
        type: `application/${kind}+json`,
        body: `{"data":{${JSON.stringify(k)}:"x"},"metadata":{${JSON.stringify(k)}:{"polluted":"yes"}}}`,
      })),
    );
    await h.req('POST', CM, configMap('patched', { a: '1' }));
    await fc.assert(
      fc.asyncProperty(patches, async ({ type, body }) => {
        const res = await send('PATCH', `${CM}/patched?fieldManager=fuzz`, body, type);
        expectSaneAnswer(res);
        const read = await h.req('GET', `${CM}/patched`);
        expect(read.status).toBe(200);
        expect(read.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'patched', namespace: 'default' } });
        expect(Object.values(read.body.data ?? {}).every((v) => typeof v === 'string')).toBe(true);
        expect(polluted().polluted).toBeUndefined();
      }),
      RUNS,
    );
  });
});

/** An encoding of a generated object, or its JSON when the format cannot hold it (Protobuf refuses unknown shapes). */
function safeEncode(format: BodyFormat, obj: Record<string, unknown>): string | Uint8Array {
  try {
    return format.encode(obj);
  } catch {
    return JSON.stringify(obj);
  }
}
