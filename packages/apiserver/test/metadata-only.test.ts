// Metadata-only reads (kube's PartialObjectMetadata), as client-go's metadata informers and the garbage collector
// ask for them: `as=PartialObjectMetadata` on gets and watches, `as=PartialObjectMetadataList` on lists.
import { describe, expect, it } from 'vitest';
import { createMessageCodec, decodeEnvelope, metaDescriptor } from '@kapi/apimachinery';
import { configMap, openWatch, startHarness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const POM = (v = 'v1') => `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=${v}`;
const POML = (v = 'v1') => `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=${v}`;
// What client-go's metadata client sends: Protobuf first, then JSON.
const CLIENT_GO_LIST = `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,${POML()}`;
const meta = createMessageCodec(metaDescriptor);

const get = async (h: Awaited<ReturnType<typeof startHarness>>, path: string, accept: string) => {
  const res = await h.server.fetch(new Request(`http://kapi.test${path}`, { headers: { accept } }));
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
};
const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('metadata-only reads', () => {
  it('get answers PartialObjectMetadata: type and metadata, no data', async () => {
    const h = await startHarness();
    const created = (await h.req('POST', CM, configMap('m', { secret: 'value' }, { labels: { a: 'b' } }))).body;
    const res = await get(h, `${CM}/m`, POM());
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json');
    expect(json(res.bytes)).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: created.metadata });
    const beta = await get(h, `${CM}/m`, POM('v1beta1'));
    expect(json(beta.bytes)).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: { name: 'm' } });
  });

  it('list answers PartialObjectMetadataList with the list metadata (continue too)', async () => {
    const h = await startHarness();
    for (const name of ['a', 'b', 'c']) await h.req('POST', CM, configMap(name));
    const res = await get(h, `${CM}?limit=2`, POML());
    expect(res.status).toBe(200);
    const list = json(res.bytes);
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.apiVersion).toBe('meta.k8s.io/v1');
    expect(list.metadata.continue).toBeTruthy();
    expect(list.metadata.remainingItemCount).toBe(1);
    expect(list.items.map((i: { kind: string; metadata: { name: string }; data?: unknown }) => [i.kind, i.metadata.name, i.data])).toEqual([
      ['PartialObjectMetadata', 'a', undefined],
      ['PartialObjectMetadata', 'b', undefined],
    ]);
  });

  it('speaks Protobuf (client-go metadata informers ask for it first)', async () => {
    const h = await startHarness();
    await h.req('POST', CM, configMap('p', {}, { labels: { x: 'y' } }));
    const list = await get(h, CM, CLIENT_GO_LIST);
    expect(list.type).toBe('application/vnd.kubernetes.protobuf');
    const { typeMeta, raw } = decodeEnvelope(list.bytes);
    expect(typeMeta).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' });
    const decoded = meta.decode('k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList', raw) as { items: { metadata: { name: string; labels: object } }[] };
    expect(decoded.items.map((i) => [i.metadata.name, i.metadata.labels])).toEqual([['p', { x: 'y' }]]);
    const one = await get(h, `${CM}/p`, `application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`);
    expect(decodeEnvelope(one.bytes).typeMeta).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' });
  });

  it('watch sends each event object as PartialObjectMetadata', async () => {
    const h = await startHarness();
    await h.req('POST', CM, configMap('w1', { k: 'v' }));
    const watch = await openWatch(h, `${CM}?watch=1`, { accept: POM() });
    await h.req('POST', CM, configMap('w2', { k: 'v' }));
    const events = await watch.next(2);
    watch.close();
    expect(events.map((e) => [e.type, e.object.kind, e.object.apiVersion, e.object.metadata.name, e.object.data])).toEqual([
      ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1', 'w1', undefined],
      ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1', 'w2', undefined],
    ]);
  });

  it('the wrong form for the verb is not acceptable (406) unless the client offers a fallback', async () => {
    const h = await startHarness();
    await h.req('POST', CM, configMap('n'));
    expect((await get(h, CM, POM())).status).toBe(406);
    expect((await get(h, `${CM}/n`, POML())).status).toBe(406);
    const fallback = await get(h, CM, `${POM()},application/json`);
    expect(fallback.status).toBe(200);
    expect(json(fallback.bytes).kind).toBe('ConfigMapList');
  });
});
