// Keys that are JavaScript object machinery (`__proto__`, `constructor`, `prototype`, `toString`) are data like any
// other, in every body format and patch type; nothing a client sends reaches a 500 or the server's own objects.
import { group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../src/endpoints/media/cbor-codec.js';
import { configMap, startHarness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const HOSTILE = { __proto__: 'p', constructor: 'c', prototype: 'x', toString: 't', hasOwnProperty: 'h' };
/** The hostile keys as a JSON text (an object literal would set the prototype instead of a `__proto__` key). */
const hostileJson = '{"__proto__":"p","constructor":"c","prototype":"x","toString":"t","hasOwnProperty":"h"}';
const dataOf = async (h: Awaited<ReturnType<typeof startHarness>>, name: string) => (await h.req('GET', `${CM}/${name}`)).body.data;

describe('hostile keys', () => {
  it('are kept as data by create (JSON and YAML), merge, strategic merge and server-side apply', async () => {
    const h = await startHarness();
    const expected = JSON.parse(hostileJson);
    expect((await h.req('POST', CM, `{"metadata":{"name":"j"},"data":${hostileJson}}`)).status).toBe(201);
    expect(await dataOf(h, 'j')).toEqual(expected);
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yml\ndata:\n' + Object.keys(expected).map((k) => `  ${k}: ${expected[k]}\n`).join('');
    expect((await h.req('POST', CM, yaml, { 'content-type': 'application/yaml' })).status).toBe(201);
    expect(await dataOf(h, 'yml')).toEqual(expected);
    await h.req('POST', CM, configMap('m', { a: '1' }));
    expect((await h.req('PATCH', `${CM}/m`, `{"data":${hostileJson}}`, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    expect(await dataOf(h, 'm')).toEqual({ a: '1', ...expected });
    await h.req('POST', CM, configMap('s', { a: '1' }));
    expect((await h.req('PATCH', `${CM}/s`, `{"data":${hostileJson}}`, { 'content-type': 'application/strategic-merge-patch+json' })).status).toBe(200);
    expect(await dataOf(h, 's')).toEqual({ a: '1', ...expected });
    const apply = await h.req('PATCH', `${CM}/ap?fieldManager=t`, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap"},"data":${hostileJson}}`, { 'content-type': 'application/apply-patch+yaml' });
    expect(apply.status).toBe(201);
    expect(await dataOf(h, 'ap')).toEqual(expected);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(HOSTILE)).toContain('constructor');
  });

  it('in metadata are unknown fields (pruned, warned), never walked into', async () => {
    const h = await startHarness();
    const res = await h.req('POST', CM, '{"metadata":{"name":"c","constructor":{"prototype":{"x":1}},"__proto__":{"x":1}},"data":{"a":"1"}}');
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"metadata.constructor\\"", 299 - "unknown field \\"metadata.__proto__\\""');
    expect(Object.keys(res.body.metadata)).not.toContain('constructor');
  });

  it('in any script as unknown fields: warned in a UTF-8 Warning header, never a 500', async () => {
    const h = await startHarness();
    const utf8Of = (header: string | null) => new TextDecoder().decode(Uint8Array.from(header ?? '', (c) => c.charCodeAt(0)));
    // A byte that is not UTF-8 reads as U+FFFD: an unknown field whose name is past Latin-1, as "ключ" or "😀".
    const enc = new TextEncoder();
    const bad = Uint8Array.from([...enc.encode('{"metadata":{"name":"u"},"'), 0x80, ...enc.encode('ata":{"a":"1"}}')]);
    const created = await h.server.fetch(new Request(`http://kapi.test${CM}`, { method: 'POST', body: bad, headers: { 'content-type': 'application/json' } }));
    expect(created.status).toBe(201);
    expect(utf8Of(created.headers.get('warning'))).toBe('299 - "unknown field \\"\ufffdata\\""');
    for (const method of ['PUT', 'PATCH']) {
      const res = await h.req(method, `${CM}/u`, '{"metadata":{"name":"u","ключ":"1"},"😀":{}}', method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {});
      expect([method, res.status]).toEqual([method, 200]);
      expect(utf8Of(res.headers.get('warning'))).toBe('299 - "unknown field \\"metadata.ключ\\"", 299 - "unknown field \\"😀\\""');
    }
  });

  it('in JSON patch paths act on keys of that name, or fail with 422; never a 500, never the prototype', async () => {
    const h = await startHarness();
    await h.req('POST', CM, configMap('p', { a: '1' }));
    for (const ops of [
      [{ op: 'add', path: '/data/__proto__/polluted', value: 'x' }],
      [{ op: 'add', path: '/__proto__/polluted', value: 'x' }],
      [{ op: 'replace', path: '/constructor/prototype/polluted', value: 'x' }],
      [{ op: 'move', from: '/data', path: '/data/a' }],
      [{ op: 'copy', from: '/data', path: '/data/b/c' }],
    ]) {
      const res = await h.req('PATCH', `${CM}/p`, ops, JSON_PATCH);
      expect([JSON.stringify(ops), res.status]).toEqual([JSON.stringify(ops), 422]);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
    }
    expect(await dataOf(h, 'p')).toEqual({ a: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('JSON patch with the semantics of kube\'s library', () => {
  it('replace of a key an object lacks adds it; remove of a missing key is 422 naming it; a bad document is 400', async () => {
    const h = await startHarness();
    await h.req('POST', CM, configMap('r', { a: '1' }));
    const replaced = await h.req('PATCH', `${CM}/r`, [{ op: 'replace', path: '/metadata/labels', value: { app: 'x' } }], JSON_PATCH);
    expect(replaced.status).toBe(200);
    expect(replaced.body.metadata.labels).toEqual({ app: 'x' });
    const removed = await h.req('PATCH', `${CM}/r`, [{ op: 'remove', path: '/data/zzz' }], JSON_PATCH);
    expect(removed.status).toBe(422);
    expect(removed.body.details.causes[0].reason).toBe('UnexpectedServerResponse');
    expect(removed.body.details.causes[0].message).toBeTruthy();
    expect((await h.req('PATCH', `${CM}/r`, [{ op: 'frobnicate', path: '/data/a' }], JSON_PATCH)).status).toBe(400);
    expect((await h.req('PATCH', `${CM}/r`, [{ op: 'test', path: '/data/a', value: '2' }], JSON_PATCH)).status).toBe(422);
    expect(await dataOf(h, 'r')).toEqual({ a: '1' });
  });

  it('survive Protobuf and CBOR both ways: sent, stored and answered as the same keys', async () => {
    const h = await startHarness({ CBORServingAndStorage: true });
    const codec = createMessageCodec(core.protobuf);
    const data = JSON.parse(hostileJson);
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
    const post = (body: Uint8Array, type: string) => h.server.fetch(new Request(`http://kapi.test${CM}`, { method: 'POST', body, headers: { 'content-type': type } }));
    expect((await post(encodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMap', cm('pb')), 'application/vnd.kubernetes.protobuf')).status).toBe(201);
    expect((await post(encodeCbor(cm('cbor')), 'application/cbor')).status).toBe(201);
    for (const name of ['pb', 'cbor']) {
      expect(Object.keys(await dataOf(h, name)).sort()).toEqual(Object.keys(data).sort());
      const asPb = await h.server.fetch(new Request(`http://kapi.test${CM}/${name}`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } }));
      expect(decodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMap', new Uint8Array(await asPb.arrayBuffer())).data).toEqual(data);
      const asCbor = await h.server.fetch(new Request(`http://kapi.test${CM}/${name}`, { headers: { accept: 'application/cbor' } }));
      expect((decodeCbor(new Uint8Array(await asCbor.arrayBuffer())) as { data: unknown }).data).toEqual(data);
    }
    // A CBOR map whose keys are not strings is not a JSON object.
    const numericKeys = Uint8Array.of(0xa1, 0x01, 0x02);
    const refused = await post(numericKeys, 'application/cbor');
    expect(refused.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
