import { group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject } from '@kapi/apimachinery';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { configMap, settled, startHarness, type Harness } from './harness.js';
import { toYaml } from '../src/endpoints/media/yaml.js';
import { decodeCbor, encodeCbor } from '../src/endpoints/media/cbor-codec.js';

const CM = '/api/v1/namespaces/default/configmaps';
const MiB = 1024 * 1024;
const enc = new TextEncoder();

/** A request body the test feeds by hand: the handler waits on it for as long as the test wants. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pulled!: () => void;
  const reading = new Promise<void>((resolve) => (pulled = resolve));
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    pull() {
      pulled();
    },
  });
  return {
    stream,
    /** Resolves once the server started reading the body (so the request holds its in-flight slot). */
    reading,
    send: (text: string) => controller.enqueue(enc.encode(text)),
    end: () => controller.close(),
  };
}

type Body = RequestInit['body'];

const post = (h: Harness, path: string, body: Body, headers: Record<string, string> = {}) =>
  Promise.resolve(h.server.fetch(new Request(`http://kapi.test${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, duplex: 'half' } as RequestInit)));

const bigConfigMap = (name: string, bytes: number) => JSON.stringify(configMap(name, { big: 'x'.repeat(bytes) }));
// Bodies that fit the limit but are beyond a ConfigMap's own 1 MiB of data: a kind with no size rule of its own.
const FLUNDERS = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
const bigFlunder = (name: string, bytes: number) => JSON.stringify({ metadata: { name }, spec: { reference: 'x'.repeat(bytes) } });

describe('request body limit (--max-resource-write-bytes)', () => {
  it('answers a 4 MiB body 413 RequestEntityTooLarge, stops reading it, and keeps serving', async () => {
    const h = await startHarness();
    const res = await h.req('POST', CM, bigConfigMap('big', 4 * MiB));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'RequestEntityTooLarge', code: 413,
      message: 'Request entity too large: limit is 3145728',
    });

    // A streamed body of unknown length is cut once it passes the limit: the rest is never pulled.
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    const streamed = await post(h, CM, endless);
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(3 * MiB + 4 * chunk.length);

    // A body announced larger than the limit is refused before it is read.
    const announced = await post(h, `${CM}/big`, 'x', { 'content-length': String(4 * MiB) });
    expect(announced.status).toBe(413);

    expect((await h.req('POST', FLUNDERS, bigFlunder('fits', 2 * MiB))).status).toBe(201);
    expect((await h.req('GET', `${FLUNDERS}/fits`)).body.spec.reference).toHaveLength(2 * MiB);
    expect((await h.req('GET', `${CM}/big`)).status).toBe(404);
  });

  it('takes its limit from the options, 0 meaning none', async () => {
    const small = await startHarness({}, { limits: { maxResourceWriteBytes: 100 } });
    expect((await small.req('POST', CM, bigConfigMap('a', 200))).body.message).toBe('Request entity too large: limit is 100');
    expect((await small.req('GET', CM)).status).toBe(200);
    const none = await startHarness({}, { limits: { maxResourceWriteBytes: 0 } });
    expect((await none.req('POST', FLUNDERS, bigFlunder('a', 4 * MiB))).status).toBe(201);
  });
});

describe('in-flight limits (--max-requests-inflight, --max-mutating-requests-inflight)', () => {
  it('answers 429 with Retry-After while the slots are taken, never counting watches', async () => {
    const h = await startHarness({}, { limits: { maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 } });
    const slow = controlledBody();
    const pending = post(h, CM, slow.stream);
    await slow.reading;

    const refused = await h.req('POST', CM, configMap('second'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'TooManyRequests', code: 429,
      message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 1 },
    });
    expect((await h.req('DELETE', `${CM}/x`)).status).toBe(429);
    // Read-only requests have their own limit, and long-running ones take no slot of either.
    const watches = await Promise.all([1, 2].map(() => h.server.fetch(new Request(`http://kapi.test${CM}?watch=true`))));
    expect(watches.map((w) => w.status)).toEqual([200, 200]);
    expect((await h.req('GET', CM)).status).toBe(200);
    for (const w of watches) await w.body?.cancel();

    slow.send(JSON.stringify(configMap('slow')));
    slow.end();
    expect((await pending).status).toBe(201);
    expect((await h.req('POST', CM, configMap('second'))).status).toBe(201);
  });
});

describe('request timeout (--request-timeout)', () => {
  it('answers 504 when a request outlives the timeout, and the request writes nothing', async () => {
    const h = await startHarness({}, { limits: { requestTimeoutMs: 200 } });
    const stuck = controlledBody();
    stuck.send('{"metadata":{"name":"late"},');
    const res = await post(h, CM, stuck.stream);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504,
      message: 'Timeout: request did not complete within the allotted timeout',
    });
    // Even if the body arrives now, the timed-out request stores nothing.
    stuck.send('"data":{"a":"1"}}');
    stuck.end();
    expect((await h.req('GET', `${CM}/late`)).status).toBe(404);
    expect((await h.req('GET', CM)).body.items).toEqual([]);
  });

  it("honours a shorter ?timeout= from the client and refuses one that is not a duration", async () => {
    const h = await startHarness();
    const stuck = controlledBody();
    const res = await post(h, `${CM}?timeout=100ms`, stuck.stream);
    expect(res.status).toBe(504);
    const bad = await h.req('GET', `${CM}?timeout=soon`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('invalid timeout specified in the request URL - time: invalid duration "soon"');
    expect((await h.req('GET', `${CM}?timeout=30s`)).status).toBe(200);
  });
});

describe('audit log (--audit-log-path)', () => {
  it('writes audit.k8s.io/v1 Events at RequestReceived and ResponseComplete: who, what, which object, the code', async () => {
    const lines: string[] = [];
    const h = await startHarness({}, { audit: { write: (line) => lines.push(line) } });
    const headers = { 'user-agent': 'kubectl/v1.33.0 (linux/amd64)', 'x-forwarded-for': '10.0.0.7' };
    const created = await h.req('POST', `${CM}?fieldManager=test`, configMap('audited'), headers);
    expect(created.status).toBe(201);
    expect((await h.req('GET', `${CM}/audited`, undefined, headers)).status).toBe(200);
    expect((await h.req('DELETE', `${CM}/audited`, undefined, headers)).status).toBe(200);
    expect((await h.req('GET', `${CM}/audited`, undefined, headers)).status).toBe(404);
    expect((await h.req('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale')).status).toBe(404);
    expect((await h.req('GET', '/version')).status).toBe(200);

    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const all = lines.map((line) => JSON.parse(line));
    expect(all.map((e) => e.stage)).toEqual(Array.from({ length: 6 }, () => ['RequestReceived', 'ResponseComplete']).flat());
    for (let i = 0; i < all.length; i += 2) {
      expect(all[i + 1].auditID).toBe(all[i].auditID);
      expect(all[i].responseStatus).toBeUndefined();
      expect(all[i].stageTimestamp).toBe(all[i].requestReceivedTimestamp);
    }
    const events = all.filter((e) => e.stage === 'ResponseComplete');
    const micro = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
    for (const e of events) {
      expect(e).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata' });
      expect(e.requestObject).toBeUndefined();
      expect(e.responseObject).toBeUndefined();
      expect(e.auditID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(e.user).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
      expect(e.requestReceivedTimestamp).toMatch(micro);
      expect(e.stageTimestamp).toMatch(micro);
      expect(e.stageTimestamp >= e.requestReceivedTimestamp).toBe(true);
    }
    expect(created.headers.get('audit-id')).toBe(events[0].auditID);
    const summary = events.map((e) => [e.verb, e.requestURI, e.objectRef, e.responseStatus]);
    const ref = { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' };
    expect(summary).toEqual([
      // The create's name comes from its object (kube's LogRequestObject completes objectRef at every level).
      ['create', `${CM}?fieldManager=test`, ref, { metadata: {}, code: 201 }],
      ['get', `${CM}/audited`, ref, { metadata: {}, code: 200 }],
      ['delete', `${CM}/audited`, ref, { metadata: {}, code: 200 }],
      // A Status answer's bounded fields, at every level (kube's LogResponseObject).
      ['get', `${CM}/audited`, ref, { metadata: {}, status: 'Failure', message: 'configmaps "audited" not found', reason: 'NotFound', details: { name: 'audited', kind: 'configmaps' }, code: 404 }],
      ['get', '/apis/apps/v1/namespaces/default/deployments/web/scale',
        { resource: 'deployments', namespace: 'default', name: 'web', apiGroup: 'apps', apiVersion: 'v1', subresource: 'scale' },
        { metadata: {}, status: 'Failure', message: 'deployments.apps "web" not found', reason: 'NotFound', details: { name: 'web', group: 'apps', kind: 'deployments' }, code: 404 }],
      ['get', '/version', undefined, { metadata: {}, code: 200 }],
    ]);
    expect(events[0]).toMatchObject({ sourceIPs: ['10.0.0.7'], userAgent: 'kubectl/v1.33.0 (linux/amd64)' });
  });

  it("completes objectRef from the request's object, not from a patch", async () => {
    const lines: string[] = [];
    const h = await startHarness({}, { audit: { write: (line) => lines.push(line) } });
    const created = (await h.req('POST', CM, configMap('ref'))).body;
    const { uid, resourceVersion } = created.metadata;
    const updated = await h.req('PUT', `${CM}/ref`, { ...created, data: { a: '2' } });
    expect(updated.status).toBe(200);
    // A patch's resourceVersion is a precondition, not a reference to complete objectRef with (kube's LogRequestPatch).
    const patch = { metadata: { resourceVersion: updated.body.metadata.resourceVersion }, data: { a: '3' } };
    expect((await h.req('PATCH', `${CM}/ref`, patch, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    const refs = lines.map((line) => JSON.parse(line)).filter((e) => e.stage === 'ResponseComplete').map((e) => [e.verb, e.objectRef]);
    expect(refs).toEqual([
      ['create', { resource: 'configmaps', namespace: 'default', name: 'ref', apiVersion: 'v1' }],
      ['update', { resource: 'configmaps', namespace: 'default', name: 'ref', uid, apiVersion: 'v1', resourceVersion }],
      ['patch', { resource: 'configmaps', namespace: 'default', name: 'ref', apiVersion: 'v1' }],
    ]);
  });

  it('records what the limits answered, and a watch once its stream ends', async () => {
    const lines: string[] = [];
    const h = await startHarness({}, { audit: { write: (line) => lines.push(line) }, limits: { maxResourceWriteBytes: 10 } });
    expect((await h.req('POST', CM, configMap('too-big'))).status).toBe(413);
    const watch = await h.server.fetch(new Request(`http://kapi.test${CM}?watch=true`));
    const stages = () => lines.map((line) => JSON.parse(line)).map((e) => [e.verb, e.stage, e.responseStatus?.code]);
    expect(stages()).toEqual([['create', 'RequestReceived', undefined], ['create', 'ResponseComplete', 413], ['watch', 'RequestReceived', undefined], ['watch', 'ResponseStarted', 200]]);
    await watch.body!.cancel();
    expect(stages()).toHaveLength(5);
    expect(stages()[4]).toEqual(['watch', 'ResponseComplete', 200]);
  });

  it('does not fail requests when the sink throws', async () => {
    const h = await startHarness({}, { audit: { write: () => { throw new Error('disk full'); } } });
    expect((await h.req('POST', CM, configMap('kept'))).status).toBe(201);
  });
});

/** mulberry32: a small seeded generator, so every run throws the same bodies. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    bytes: (n: number) => Uint8Array.from({ length: n }, () => int(256)),
  };
}

interface FuzzCase {
  name: string;
  method: string;
  path: string;
  body?: string | Uint8Array;
  contentType?: string;
}

const VICTIM = `${CM}/victim`;
const PATCH_TYPES = ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml'];

/** ~200 malformed requests: every one must be answered 4xx with a Status body. */
function fuzzCases(seed: number): FuzzCase[] {
  const r = random(seed);
  const valid = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fuzz', labels: { app: 'x' } }, data: { a: '1', b: 'two' } });
  const deepJson = (n: number, open = '{"a":', close = '}') => open.repeat(n) + '1' + close.repeat(n);
  const cases: FuzzCase[] = [];
  const add = (name: string, body: string | Uint8Array, contentType = 'application/json') => {
    // Writes of every kind, aimed at the collection or at a victim object, never at the one the test checks.
    const [method, path, type] = r.pick([
      ['POST', CM, contentType],
      ['PUT', VICTIM, contentType],
      ['PATCH', `${VICTIM}?fieldManager=fuzz`, contentType === 'application/json' ? r.pick(PATCH_TYPES.slice(0, 3)) : contentType === 'application/yaml' ? PATCH_TYPES[3] : contentType],
      ['DELETE', VICTIM, contentType],
    ] as const);
    cases.push({ name, method, path, body, contentType: type });
  };

  for (let i = 0; i < 50; i++) add('truncated JSON', valid.slice(0, 1 + r.int(valid.length - 2)));
  for (let i = 0; i < 40; i++) {
    // A raw control character is invalid anywhere in JSON, inside strings too; flips around it add noise.
    const bytes = enc.encode(valid);
    for (let f = 0; f < 3; f++) bytes[r.int(bytes.length)] = r.int(256);
    bytes[r.int(bytes.length)] = 1 + r.int(8);
    add('garbled JSON', bytes);
  }
  const wrongTypes = [123, -1, true, null, [], ['x'], { a: 1 }, 'text', 1.5];
  const targets: ((o: any, v: unknown) => void)[] = [
    (o, v) => (o.metadata = v === null ? 'x' : v),
    (o, v) => (o.metadata.name = v === null || typeof v === 'string' ? 7 : v),
    (o, v) => (o.metadata.labels = typeof v === 'object' && v && !Array.isArray(v) ? [] : v === null ? 5 : v),
    (o, v) => (o.data = v === null || (typeof v === 'object' && !Array.isArray(v)) ? 'x' : v),
    (o, v) => (o.data.a = v === null || typeof v === 'string' ? { nested: true } : v),
  ];
  for (let i = 0; i < 25; i++) {
    const obj = JSON.parse(valid);
    r.pick(targets)(obj, r.pick(wrongTypes));
    cases.push({ name: 'wrong types', method: 'POST', path: CM, body: JSON.stringify(obj), contentType: 'application/json' });
  }
  for (const body of ['[]', '"configmap"', 'null', '42', '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}', '{"apiVersion":"v2","metadata":{"name":"v"}}']) {
    cases.push({ name: 'not a ConfigMap', method: 'POST', path: CM, body, contentType: 'application/json' });
  }
  for (const n of ['1e400', '-1e400', '18446744073709551616', '123456789012345678901234567890', '1e309']) {
    const body = `{"metadata":{"name":"num"},"data":{"a":"1"},"extra":${n}}`;
    cases.push({ name: `huge number ${n}`, method: 'POST', path: CM, body, contentType: 'application/json' });
    cases.push({ name: `huge number ${n} (merge patch)`, method: 'PATCH', path: VICTIM, body: `{"extra":${n}}`, contentType: 'application/merge-patch+json' });
  }
  // Nesting bombs: 100k levels in each text format, and YAML alias expansion.
  const deep = 100_000;
  cases.push({ name: 'deep JSON objects', method: 'POST', path: CM, body: `{"metadata":{"name":"deep"},"x":${deepJson(deep)}}`, contentType: 'application/json' });
  cases.push({ name: 'deep JSON arrays', method: 'POST', path: CM, body: `{"metadata":{"name":"deep"},"x":${'['.repeat(deep)}${']'.repeat(deep)}}`, contentType: 'application/json' });
  cases.push({ name: 'deep JSON patch', method: 'PATCH', path: VICTIM, body: `{"data":${deepJson(deep)}}`, contentType: 'application/strategic-merge-patch+json' });
  cases.push({ name: 'deep JSON DeleteOptions', method: 'DELETE', path: VICTIM, body: deepJson(deep), contentType: 'application/json' });
  cases.push({ name: 'deep YAML flow', method: 'POST', path: CM, body: `metadata: {name: deep}\nx: ${'['.repeat(deep)}${']'.repeat(deep)}\n`, contentType: 'application/yaml' });
  cases.push({ name: 'deep YAML block', method: 'POST', path: CM, body: `metadata: {name: deep}\nx:\n${'- '.repeat(deep)}x\n`, contentType: 'application/yaml' });
  cases.push({ name: 'deep YAML apply', method: 'PATCH', path: `${VICTIM}?fieldManager=fuzz`, body: `{"metadata":{"name":"victim"},"x":${deepJson(deep)}}`, contentType: 'application/apply-patch+yaml' });
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
  cases.push({ name: 'YAML billion laughs', method: 'POST', path: CM, body: `metadata: {name: lol}\n${laughs.join('\n')}\n`, contentType: 'application/yaml' });
  cases.push({ name: 'YAML self-referencing alias', method: 'POST', path: CM, body: 'metadata: {name: loop}\nx: &x [*x]\n', contentType: 'application/yaml' });
  cases.push({ name: 'YAML .inf', method: 'POST', path: CM, body: 'metadata: {name: inf}\nx: .inf\n', contentType: 'application/yaml' });
  for (const body of ['metadata: {name: [', 'metadata:\n  name: a\n name: b\n', '\tmetadata: x', 'a: b: c', '- a\nb: c', '{{{', '---\na: 1\n---\nb: 2\n']) add('malformed YAML', body, 'application/yaml');
  // Random bytes as Protobuf (with and without the k8s envelope magic) and as CBOR (with and without tag 55799).
  for (let i = 0; i < 20; i++) {
    const magic = r.int(3) > 0;
    const bytes = r.bytes(1 + r.int(200));
    add('random Protobuf', magic ? Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...bytes]) : bytes, 'application/vnd.kubernetes.protobuf');
  }
  for (let i = 0; i < 20; i++) {
    const bytes = r.bytes(1 + r.int(200));
    add('random CBOR', r.int(2) ? Uint8Array.from([0xd9, 0xd9, 0xf7, ...bytes]) : bytes, 'application/cbor');
  }
  const cbor = (...parts: number[][]) => Uint8Array.from(parts.flat());
  cases.push({ name: 'deep CBOR', method: 'POST', path: CM, body: cbor(Array(deep).fill(0x81), [0]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR tag chain', method: 'POST', path: CM, body: cbor(Array(deep).fill(0xc6), [0]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR huge array length', method: 'POST', path: CM, body: cbor([0x9b, 0x00, 0x20, 0, 0, 0, 0, 0, 0]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR huge string length', method: 'POST', path: CM, body: cbor([0x7a, 0x7f, 0xff, 0xff, 0xff, 0x61]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR value sharing cycle', method: 'POST', path: CM, body: cbor([0xd8, 0x1c, 0xa1, 0x61, 0x61, 0xd8, 0x1d, 0x00]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR NaN', method: 'POST', path: CM, body: cbor([0xa1, 0x61, 0x78, 0xf9, 0x7e, 0x00]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR 2^64-1', method: 'POST', path: CM, body: cbor([0xa1, 0x61, 0x78, 0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), contentType: 'application/cbor' });
  cases.push({ name: 'CBOR trailing bytes', method: 'POST', path: CM, body: cbor([0xa0, 0xa0]), contentType: 'application/cbor' });
  // An unknown field (15) opening groups within groups: a skipping decoder recurses once per group.
  const groups = 1_000_000;
  const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(Math.floor(n / 0x80))]);
  cases.push({ name: 'Protobuf nested groups', method: 'POST', path: CM, body: cbor([0x6b, 0x38, 0x73, 0x00, 0x12, ...varint(groups)], Array(groups).fill(0x7b)), contentType: 'application/vnd.kubernetes.protobuf' });
  // Oversized, and of no known media type.
  for (let i = 0; i < 3; i++) add('oversized', bigConfigMap('huge', 3 * MiB + 1 + r.int(MiB)));
  cases.push({ name: 'unknown media type', method: 'POST', path: CM, body: valid, contentType: 'text/plain' });
  cases.push({ name: 'garbage media type', method: 'POST', path: CM, body: valid, contentType: ';;;==/' });
  return cases;
}

/** Paths no client should send; requests carry no body, so nothing may be created or changed by them. */
const ODD_PATHS = [
  '/api/v1/namespaces/%2e%2e/pods/x',
  '/api/v1/namespaces/default/configmaps/..%2F..',
  '/api/v1/namespaces/default/configmaps/%2F',
  '/api/v1/namespaces/%zz/configmaps/x',
  '//',
  '///api//v1//',
  `/api/v1/namespaces/default/configmaps/${'a'.repeat(20_000)}`,
  `/api/v1/namespaces/${'n'.repeat(5000)}/configmaps/x`,
  '/api/v1/namespaces/ünïcødé/configmaps/😀',
  '/api/v1/namespaces/default/configmaps/%F0%9F%98%80%00',
  '/apis/%00/v1/things',
  '/apis/apps/v1/namespaces/default/deployments/x/scale/extra',
  '/api/v1/namespaces/default/pods/x/log',
  '/api/v1/namespaces/default/pods/x/exec',
  '/api/v1/namespaces/default/nothings',
  '/api/v0/pods',
  '/openapi/v3/%zz',
  '/apis/%zz',
];

const withTimeout = <T>(p: Promise<T>, what: string, ms = 15_000) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms))]);

describe('robustness: malformed bodies and odd paths', () => {
  it('answers every one with a 4xx Status, then still serves with stored data intact', async () => {
    const h = await startHarness({ CBORServingAndStorage: true });
    const kept = await h.req('POST', CM, configMap('kept', { a: '1', b: 'two' }, { labels: { keep: 'me' } }));
    expect(kept.status).toBe(201);
    expect((await h.req('POST', CM, configMap('victim'))).status).toBe(201);

    const cases = fuzzCases(20250607);
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const failures: string[] = [];
    const send = async (c: FuzzCase) => {
      const res = await withTimeout(
        Promise.resolve(h.server.fetch(new Request(`http://kapi.test${c.path}`, {
          method: c.method,
          body: c.body as Body | undefined,
          headers: c.contentType ? { 'content-type': c.contentType } : {},
        }))),
        `${c.name}: ${c.method} ${c.path.slice(0, 80)}`,
      );
      const text = await withTimeout(res.text(), `${c.name}: body`);
      let status: any;
      try {
        status = JSON.parse(text);
      } catch {
        status = undefined;
      }
      const isStatus = status?.kind === 'Status' && status.code === res.status && status.status === 'Failure';
      return { res, status, isStatus };
    };

    for (const c of cases) {
      const { res, status, isStatus } = await send(c);
      if (process.env.FUZZ_DEBUG) console.log(`${c.name} | ${c.method} ${c.contentType} | ${res.status} ${String(status?.message ?? '').split('\n')[0].slice(0, 110)}`);
      if (res.status < 400 || res.status >= 500 || !isStatus) {
        failures.push(`${c.name} (${c.method} ${c.contentType}): ${res.status} ${String(status?.message ?? '').slice(0, 160)}`);
      }
    }
    for (const path of ODD_PATHS) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const { res, status, isStatus } = await send({ name: 'odd path', method, path, contentType: method === 'PATCH' ? 'application/merge-patch+json' : undefined });
        if (res.status < 400 || res.status >= 500 || !isStatus) failures.push(`odd path ${method} ${path.slice(0, 60)}: ${res.status} ${String(status?.message ?? '').slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);

    // The object created before is exactly as it was, and the server goes on serving reads and writes.
    const after = await h.req('GET', `${CM}/kept`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(kept.body);
    expect((await h.req('POST', CM, configMap('after'))).status).toBe(201);
    expect((await h.req('PUT', `${CM}/after`, configMap('after', { a: '2' }))).status).toBe(200);
    const list = await h.req('GET', CM);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: any) => i.metadata.name)).toContain('after');
    // In process, with nothing but promises between requests, the watch cache's fill (queued with setImmediate)
    // may not have run yet: readyz says so until it has, and then answers 200 (on a loaded machine that can take
    // more than one turn of the event loop, so ask until it does or the test's time runs out).
    let ready = (await h.req('GET', '/readyz')).status;
    while (ready !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ready = (await h.req('GET', '/readyz')).status;
    }
    expect(ready).toBe(200);
  }, 120_000);
});

describe('memory budget (limits.maxHeapBytes)', () => {
  it('refuses writes that add data with 429 and Retry-After while the heap is over budget; reads and deletes go on', async () => {
    const roomy = await startHarness();
    expect((await roomy.req('POST', CM, configMap('before'))).status).toBe(201);
    const h = await startHarness({}, { limits: { maxHeapBytes: 1 } });
    const refused = await h.req('POST', CM, configMap('refused'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, message: 'the server is short of memory; retry later' });
    expect((await h.req('PATCH', `${CM}/kube-root-ca.crt`, { data: { a: 'b' } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(429);
    expect((await h.req('GET', CM)).status).toBe(200);
    expect((await h.req('DELETE', `${CM}/nothing-here`)).status).toBe(404);
    const off = await startHarness({}, { limits: { maxHeapBytes: 0 } });
    expect((await off.req('POST', CM, configMap('allowed'))).status).toBe(201);
  });
});

/** Counts turns of the event loop (setImmediate callbacks) until stopped: how often other work got a chance. */
function countTurns(): { stop(): number } {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return turns;
    },
  };
}

describe('fair sharing: a long list from the watch cache', () => {
  it('is selected in slices with turns of the event loop between them, and stays one consistent snapshot', async () => {
    const h = await startHarness();
    await new Promise((r) => setTimeout(r, 20)); // the watch cache fills
    expect((await h.req('GET', '/readyz/watch-cache')).body).toBe('ok');
    const encoder = new TextEncoder();
    const N = 12_000;
    for (let i = 0; i < N; i++) {
      const name = `cm-${String(i).padStart(5, '0')}`;
      const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'default', uid: `u${i}`, labels: { n: String(i % 10) } }, data: { i: String(i) } };
      await h.storage.create(`/registry/configmaps/default/${name}`, encoder.encode(JSON.stringify(obj)));
    }
    // The cache has followed every write (a read not older than the last write waits for it).
    const last = await h.storage.currentRevision();
    expect((await h.req('GET', `${CM}?resourceVersion=${last}&limit=1`)).status).toBe(200);
    // A selector of many terms that matches a tenth of the objects.
    const selector = `n in (3,${Array.from({ length: 300 }, (_, i) => `x${i}`).join(',')})`;
    const listTurns = countTurns();
    const pending = h.req('GET', `${CM}?resourceVersion=${last}&labelSelector=${encodeURIComponent(selector)}`);
    // Writes while it runs are not in it: the list is the collection as of its start.
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 5; i++) await h.storage.create(`/registry/configmaps/default/late-${i}`, encoder.encode(JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `late-${i}`, namespace: 'default', labels: { n: '3' } } })));
    const list = await pending;
    const turns = listTurns.stop();
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(N / 10);
    expect(list.body.metadata.resourceVersion).toBe(String(last));
    expect(list.body.items.every((i: any) => i.metadata.labels.n === '3')).toBe(true);
    // The event loop turned between the slices (one per 2,000 keys examined), so other requests were served.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(N / 2_000) - 1);

    // Writing a big list out is done in slices too: the body is what JSON.stringify gives, gzipped when asked.
    const plainRes = await h.server.fetch(new Request(`http://kapi.test${CM}?resourceVersion=0`));
    const readTurns = countTurns();
    const plain = await plainRes.text();
    const encodeTurns = readTurns.stop();
    expect(plainRes.headers.get('content-encoding')).toBeNull();
    const parsed = JSON.parse(plain);
    expect(parsed.items.length).toBeGreaterThanOrEqual(N + 5);
    expect(plain).toBe(JSON.stringify(parsed) + '\n');
    expect(parsed.kind).toBe('ConfigMapList');
    expect(parsed.items.some((i: any) => 'kind' in i || 'apiVersion' in i)).toBe(false);
    expect(encodeTurns).toBeGreaterThanOrEqual(Math.floor(N / 500) - 1);
    const zipped = await h.server.fetch(new Request(`http://kapi.test${CM}?resourceVersion=0`, { headers: { 'accept-encoding': 'gzip' } }));
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(plain);

    // Protobuf too: encoded in slices, the same bytes as in one piece, the same list as the JSON.
    const pbCount = countTurns();
    const pbRes = await h.server.fetch(new Request(`http://kapi.test${CM}?resourceVersion=0`, { headers: { accept: 'application/vnd.kubernetes.protobuf', 'accept-encoding': 'gzip' } }));
    const pbBytes = gunzipSync(Buffer.from(await pbRes.arrayBuffer()));
    const pbTurns = pbCount.stop();
    expect(pbRes.headers.get('content-encoding')).toBe('gzip');
    const codec = createMessageCodec(core.protobuf);
    const decoded = decodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMapList', new Uint8Array(pbBytes));
    expect(decoded).toEqual(parsed);
    expect(Buffer.from(encodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMapList', parsed)).equals(pbBytes)).toBe(true);
    expect(pbTurns).toBeGreaterThanOrEqual(Math.floor(N / 500) - 1);

    // And YAML, the slowest to write: in slices of 50, the same text as in one piece.
    const yamlCount = countTurns();
    const yamlRes = await h.server.fetch(new Request(`http://kapi.test${CM}?resourceVersion=0`, { headers: { accept: 'application/yaml' } }));
    const yamlText = await yamlRes.text();
    const yamlTurns = yamlCount.stop();
    expect(yamlRes.headers.get('content-type')).toBe('application/yaml');
    expect(yamlText).toBe(toYaml(parsed));
    expect(yamlTurns).toBeGreaterThanOrEqual(Math.floor(N / 50) - 1);
  }, 60_000);

  it('as CBOR (CBORServingAndStorage), a big list is encoded in slices to the same bytes as in one piece', async () => {
    const h = await startHarness({ CBORServingAndStorage: true });
    // The server's own writes (default ServiceAccounts) are done before the list's revision is taken.
    await settled(h);
    const encoder = new TextEncoder();
    for (let i = 0; i < 1_100; i++) {
      const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `c-${i}`, namespace: 'default', uid: `u${i}` }, data: { i: String(i) } };
      await h.storage.create(`/registry/configmaps/default/c-${i}`, encoder.encode(JSON.stringify(obj)));
    }
    // Both reads at the revision of the last write: the watch cache may not have reached it yet (under load).
    const rv = JSON.parse(await (await h.server.fetch(new Request(`http://kapi.test${CM}?limit=1`))).text()).metadata.resourceVersion;
    const at = `${CM}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`;
    const json = JSON.parse(await (await h.server.fetch(new Request(`http://kapi.test${at}`))).text());
    const res = await h.server.fetch(new Request(`http://kapi.test${at}`, { headers: { accept: 'application/cbor' } }));
    expect(res.headers.get('content-type')).toBe('application/cbor');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(decodeCbor(bytes)).toEqual(json);
    expect(Buffer.from(bytes).equals(Buffer.from(encodeCbor(json)))).toBe(true);
  });

  it('read from storage (the cache not ready) is read in pages with turns between them, all at one revision', async () => {
    const h = await startHarness();
    // In process, with nothing but promises, the cache has not filled: reads go to storage.
    expect((await h.req('GET', '/readyz/watch-cache')).status).toBe(500);
    const encoder = new TextEncoder();
    const N = 7_000;
    for (let i = 0; i < N; i++) {
      const name = `s-${String(i).padStart(5, '0')}`;
      await h.storage.create(`/registry/configmaps/default/${name}`, encoder.encode(JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'default' } })));
    }
    const revision = await h.storage.currentRevision();
    const turns = countTurns();
    // pretty JSON is written in one piece, so the turns counted are the storage reads'.
    const list = await h.req('GET', `${CM}?pretty=true`);
    const counted = turns.stop();
    expect(list.status).toBe(200);
    expect(list.body.items.filter((i: any) => i.metadata.name.startsWith('s-'))).toHaveLength(N);
    expect(list.body.metadata.resourceVersion).toBe(String(revision));
    expect(counted).toBeGreaterThanOrEqual(Math.floor(N / 2_000));
  }, 60_000);
});
