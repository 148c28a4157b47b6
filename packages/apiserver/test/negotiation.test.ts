import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { decode as decodeCborItem, decodeMultiple } from 'cbor-x';
import { group as core } from '@kapi/api-core';
import {
  createMessageCodec,
  decodeEnvelope,
  decodeProtobufObject,
  encodeProtobufObject,
  metaDescriptor,
} from '@kapi/apimachinery';
import { stringify as toYaml, parse as parseYaml } from 'yaml';
import { encodeCbor } from '../src/endpoints/media/cbor-codec.js';
import { ALL_GROUPS, configMap, startHarness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const PB = 'application/vnd.kubernetes.protobuf';
const codec = createMessageCodec(core.protobuf);
const MSG = 'k8s.io.api.core.v1.ConfigMap';

interface Format {
  name: string;
  type: string;
  encode(obj: unknown): Uint8Array | string;
  decode(bytes: Uint8Array, message?: string): any;
}

const FORMATS: Format[] = [
  { name: 'JSON', type: 'application/json', encode: (o) => JSON.stringify(o), decode: (b) => JSON.parse(Buffer.from(b).toString()) },
  { name: 'YAML', type: 'application/yaml', encode: (o) => toYaml(o), decode: (b) => parseYaml(Buffer.from(b).toString()) },
  {
    name: 'Protobuf',
    type: PB,
    encode: (o) => encodeProtobufObject(codec, MSG, o as Record<string, unknown>),
    decode: (b, message = MSG) => decodeProtobufObject(codec, message, b),
  },
  { name: 'CBOR', type: 'application/cbor', encode: (o) => encodeCbor(o), decode: (b) => decodeCborItem(b) },
];

async function call(h: Awaited<ReturnType<typeof startHarness>>, method: string, path: string, f: Format, body?: unknown, accept = f.type) {
  const init: { method: string; headers: Record<string, string>; body?: Uint8Array | string } = { method, headers: { accept } };
  if (body !== undefined) {
    init.body = f.encode(body);
    init.headers['content-type'] = f.type;
  }
  const res = await h.server.fetch(new Request(`http://x${path}`, init as RequestInit));
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('every media type on every verb', () => {
  for (const f of FORMATS) {
    it(`${f.name}: create, get, list, update, watch and delete round-trip`, async () => {
      const h = await startHarness({ CBORServingAndStorage: true });
      const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rt', labels: { f: f.name } }, data: { k: 'v' } };
      const created = await call(h, 'POST', CM, f, obj);
      expect(created.res.status).toBe(201);
      expect(created.res.headers.get('content-type')).toBe(f.type);
      const c = f.decode(created.bytes);
      expect(c).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'rt', labels: { f: f.name } }, data: { k: 'v' } });

      const got = f.decode((await call(h, 'GET', `${CM}/rt`, f)).bytes);
      expect(got).toEqual(c);
      const asJson = JSON.parse(Buffer.from((await call(h, 'GET', `${CM}/rt`, FORMATS[0])).bytes).toString());
      expect(got).toEqual(asJson);

      const list = f.decode((await call(h, 'GET', CM, f)).bytes, `${MSG}List`);
      expect(list.items.map((i: any) => i.metadata.name)).toEqual(['rt']);

      const updated = await call(h, 'PUT', `${CM}/rt`, f, { ...c, data: { k: 'w' } });
      expect(updated.res.status).toBe(200);
      expect(f.decode(updated.bytes).data).toEqual({ k: 'w' });

      const watch = await h.server.fetch(new Request(`http://x${CM}?watch=1`, { headers: { accept: f.type } }));
      const reader = watch.body!.getReader();
      const chunk = (await reader.read()).value!;
      await reader.cancel();
      const event = decodeWatchEvent(f, watch.headers.get('content-type')!, chunk);
      expect(event.type).toBe('ADDED');
      expect(event.object.metadata.name).toBe('rt');

      const deleted = await call(h, 'DELETE', `${CM}/rt`, f);
      expect(deleted.res.status).toBe(200);
      expect((await call(h, 'GET', `${CM}/rt`, FORMATS[0])).res.status).toBe(404);
    });
  }
});

function decodeWatchEvent(f: Format, contentType: string, chunk: Uint8Array): { type: string; object: any } {
  if (f.name === 'Protobuf') {
    expect(contentType).toBe(`${PB};stream=watch`);
    const length = new DataView(chunk.buffer, chunk.byteOffset).getUint32(0);
    const envelope = decodeEnvelope(chunk.subarray(4, 4 + length));
    expect(envelope.typeMeta).toEqual({ apiVersion: 'v1', kind: 'WatchEvent' });
    const meta = createMessageCodec(metaDescriptor);
    const event = meta.decode('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent', envelope.raw) as { type: string; object: Uint8Array };
    return { type: event.type, object: decodeProtobufObject(codec, MSG, event.object) };
  }
  if (f.name === 'CBOR') {
    expect(contentType).toBe('application/cbor-seq');
    return (decodeMultiple(chunk) as unknown as unknown[])[0] as { type: string; object: any };
  }
  expect(contentType).toBe('application/json');
  return JSON.parse(Buffer.from(chunk).toString().split('\n')[0]);
}

describe('negotiation rules', () => {
  it('JSON documents end with a newline, as kube writes them: objects, lists and Status errors', async () => {
    const h = await startHarness();
    await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('nl'));
    for (const path of ['/api/v1/namespaces/default/configmaps/nl', '/api/v1/namespaces/default/configmaps', '/api/v1/namespaces/default/configmaps/missing']) {
      const res = await h.server.fetch(new Request(`http://kapi.test${path}`));
      const text = await res.text();
      expect(text.endsWith('}\n'), path).toBe(true);
      expect(text.slice(0, -1)).not.toContain('\n');
    }
  });

  it('YAML bodies quote every string a YAML 1.1 reader would take for something else', async () => {
    const h = await startHarness();
    await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('y11', { on: 'yes', y: 'n', ts: '2024-01-01', tilde: '~', hex: '0x1F' }));
    const res = await h.server.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps/y11', { headers: { accept: 'application/yaml' } }));
    const text = await res.text();
    expect(text).toContain('"on": "yes"');
    expect(text).toContain('"y": "n"');
    expect(text).toContain('ts: "2024-01-01"');
    expect(parseYaml(text, { version: '1.1' }).data).toEqual({ on: 'yes', y: 'n', ts: '2024-01-01', tilde: '~', hex: '0x1F' });
  });

  it('a Protobuf-then-JSON client gets Protobuf for every kind that lists', async () => {
    const h = await startHarness();
    for (const group of ALL_GROUPS) {
      for (const r of group.resources.filter((x) => x.verbs.includes('list'))) {
        const path = `${r.group ? `/apis/${r.group}` : '/api'}/${r.version}/${r.plural}`;
        const res = await h.server.fetch(new Request(`http://x${path}`, { headers: { accept: `${PB}, application/json` } }));
        expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, PB]);
        const list = decodeProtobufObject(createMessageCodec(group.protobuf), r.protobuf.listMessage, new Uint8Array(await res.arrayBuffer()));
        expect(list.kind).toBe(r.listKind);
      }
    }
  });

  it('errors come as a Protobuf Status to a Protobuf client', async () => {
    const h = await startHarness();
    const res = await h.server.fetch(new Request(`http://x${CM}/missing`, { headers: { accept: PB } }));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(PB);
    const status = decodeProtobufObject(createMessageCodec(metaDescriptor), 'k8s.io.apimachinery.pkg.apis.meta.v1.Status', new Uint8Array(await res.arrayBuffer()));
    expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', reason: 'NotFound', code: 404, message: 'configmaps "missing" not found' });
  });

  it('CBOR is offered only with CBORServingAndStorage on: 406 and 415 when off', async () => {
    const off = await startHarness();
    const accept = await off.req('GET', CM, undefined, { accept: 'application/cbor' });
    expect(accept.status).toBe(406);
    expect(accept.body.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    const send = await off.server.fetch(new Request(`http://x${CM}`, { method: 'POST', body: encodeCbor(configMap('c')), headers: { 'content-type': 'application/cbor' } }));
    expect(send.status).toBe(415);
    const on = await startHarness({ CBORServingAndStorage: true });
    const res = await on.server.fetch(new Request(`http://x${CM}`, { headers: { accept: 'application/cbor' } }));
    expect(res.headers.get('content-type')).toBe('application/cbor');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
  });

  it('gzips large get and list responses when asked and allowed, never small ones or watches', async () => {
    const big = 'x'.repeat(40 * 1024);
    const on = await startHarness();
    const off = await startHarness({ APIResponseCompression: false });
    for (const h of [on, off]) for (let i = 0; i < 4; i++) await h.req('POST', CM, configMap(`big${i}`, { v: big }));
    const gz = { 'accept-encoding': 'gzip' };
    const listed = await on.server.fetch(new Request(`http://x${CM}`, { headers: gz }));
    expect(listed.headers.get('content-encoding')).toBe('gzip');
    const list = JSON.parse(gunzipSync(Buffer.from(await listed.arrayBuffer())).toString());
    expect(list.items).toHaveLength(4);
    const small = await on.server.fetch(new Request(`http://x${CM}/big0`, { headers: gz }));
    expect(small.headers.get('content-encoding')).toBeNull();
    const plain = await on.server.fetch(new Request(`http://x${CM}`));
    expect(plain.headers.get('content-encoding')).toBeNull();
    const gateOff = await off.server.fetch(new Request(`http://x${CM}`, { headers: gz }));
    expect(gateOff.headers.get('content-encoding')).toBeNull();
    const watch = await on.server.fetch(new Request(`http://x${CM}?watch=1`, { headers: gz }));
    expect(watch.headers.get('content-encoding')).toBeNull();
    await watch.body!.cancel();
  });
});
