import { beforeEach, describe, expect, it } from 'vitest';
import { group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, encodeProtobufObject } from '@kapi/apimachinery';
import { configMap, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const PB = 'application/vnd.kubernetes.protobuf';

describe('representations', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });

  it('accepts Protobuf request bodies (as kubectl 1.32+ sends them) and answers Protobuf when asked', async () => {
    const codec = createMessageCodec(core.protobuf);
    const body = encodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb', generateName: '' }, data: { a: 'b' } });
    const res = await h.server.fetch(new Request(`http://x${CM}`, { method: 'POST', body, headers: { 'content-type': PB, accept: `${PB}, application/json` } }));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe(PB);
    const created = decodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMap', new Uint8Array(await res.arrayBuffer()));
    expect(created).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'pb', namespace: 'default' }, data: { a: 'b' } });
    expect((created.metadata as Record<string, unknown>).generateName).toBeUndefined();
    const list = await h.server.fetch(new Request(`http://x${CM}`, { headers: { accept: PB } }));
    const decoded = decodeProtobufObject(codec, 'k8s.io.api.core.v1.ConfigMapList', new Uint8Array(await list.arrayBuffer()));
    expect((decoded.items as unknown[]).length).toBe(1);
  });

  it('writes typed lists as kube does: the kind on the list, none on its items; a get and a watch event carry it', async () => {
    await h.req('POST', CM, configMap('typed', { k: 'v' }));
    const list = await h.req('GET', CM);
    expect(list.body).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1' });
    expect(list.body.items.length).toBeGreaterThan(0);
    for (const item of list.body.items) {
      expect(Object.keys(item)).not.toContain('kind');
      expect(Object.keys(item)).not.toContain('apiVersion');
    }
    const yaml = await (await h.server.fetch(new Request(`http://x${CM}`, { headers: { accept: 'application/yaml' } }))).text();
    expect(yaml).toMatch(/^kind: ConfigMapList$/m);
    expect(yaml).not.toMatch(/^(- |  )(kind|apiVersion):/m);
    expect((await h.req('GET', `${CM}/typed`)).body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    const watch = await h.server.fetch(new Request(`http://x${CM}?watch=true&resourceVersion=0`));
    const reader = watch.body!.getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split('\n')[0]);
    await reader.cancel();
    expect(first.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
  });

  it('answers YAML when asked, and pretty JSON with pretty=true', async () => {
    await h.req('POST', CM, configMap('y', { k: 'v' }));
    const res = await h.server.fetch(new Request(`http://x${CM}/y`, { headers: { accept: 'application/yaml' } }));
    expect(res.headers.get('content-type')).toBe('application/yaml');
    // kube's YAML sorts keys (yaml.v2); its JSON keeps Go's struct order, kind first.
    expect(await res.text()).toMatch(/^apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n/);
    const pretty = await (await h.server.fetch(new Request(`http://x${CM}/y?pretty=true`))).text();
    expect(pretty).toMatch(/^\{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n  "metadata": \{\n    "name": "y",\n    "namespace": "default",\n    "uid": "[^"]+",\n    "resourceVersion": "\d+",\n    "creationTimestamp": "[^"]+",\n    "managedFields": \[/);
  });

  it('renders Tables with the kind printer columns, and the default two for a kind without any', async () => {
    await h.req('POST', CM, configMap('t', { a: '1', b: '2' }));
    const cms = await h.req('GET', CM, undefined, { accept: TABLE });
    expect(cms.body.kind).toBe('Table');
    expect(cms.body.apiVersion).toBe('meta.k8s.io/v1');
    expect(cms.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(cms.body.rows[0].cells.slice(0, 2)).toEqual(['t', 2]);
    expect(cms.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 't' } });
    await h.req('POST', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders', { metadata: { name: 'f' }, spec: { reference: 'x' } });
    const flunder = await h.req('GET', '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/f?includeObject=Object', undefined, { accept: TABLE });
    expect(flunder.body.columnDefinitions.map((c: any) => [c.name, c.type])).toEqual([['Name', 'string'], ['Created At', 'date']]);
    expect(flunder.body.rows[0].object.spec).toEqual({ reference: 'x', referenceType: 'Flunder' });
  });

  it('watches: synthetic ADDED for the current state, then changes in order, filtered by selector', async () => {
    await h.req('POST', CM, configMap('w1', {}, { labels: { app: 'a' } }));
    const controller = new AbortController();
    const res = await h.server.fetch(new Request(`http://x${CM}?watch=1&labelSelector=app%3Da`, { signal: controller.signal }));
    expect(res.headers.get('content-type')).toBe('application/json');
    const reader = res.body!.getReader();
    const events: { type: string; name: string }[] = [];
    let buffered = '';
    const next = async () => {
      while (!buffered.includes('\n')) buffered += new TextDecoder().decode((await reader.read()).value);
      const line = buffered.slice(0, buffered.indexOf('\n'));
      buffered = buffered.slice(line.length + 1);
      const event = JSON.parse(line);
      events.push({ type: event.type, name: event.object.metadata.name });
    };
    await next();
    await h.req('POST', CM, configMap('other', {}, { labels: { app: 'b' } }));
    await h.req('POST', CM, configMap('w2', {}, { labels: { app: 'a' } }));
    await h.req('PATCH', `${CM}/w1`, { data: { x: 'y' } }, { 'content-type': 'application/merge-patch+json' });
    await h.req('PATCH', `${CM}/w2`, { metadata: { labels: { app: 'gone' } } }, { 'content-type': 'application/merge-patch+json' });
    await h.req('DELETE', `${CM}/w1`);
    for (let i = 0; i < 4; i++) await next();
    controller.abort();
    expect(events).toEqual([
      { type: 'ADDED', name: 'w1' },
      { type: 'ADDED', name: 'w2' },
      { type: 'MODIFIED', name: 'w1' },
      { type: 'DELETED', name: 'w2' },
      { type: 'DELETED', name: 'w1' },
    ]);
  });

  it('two-phase deletion is seen by watchers as MODIFIED (deletionTimestamp) then DELETED', async () => {
    await h.req('POST', CM, configMap('fin', {}, { finalizers: ['example.com/x'] }));
    const list = await h.req('GET', CM);
    const controller = new AbortController();
    const res = await h.server.fetch(new Request(`http://x${CM}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`, { signal: controller.signal }));
    const reader = res.body!.getReader();
    await h.req('DELETE', `${CM}/fin`);
    await h.req('PATCH', `${CM}/fin`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    let text = '';
    while (text.split('\n').length < 3) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const events = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(events[0].object.metadata.deletionTimestamp).toBeDefined();
    // As with etcd, a DELETED event carries the last stored state of the object.
    expect(events[1].object.metadata.deletionTimestamp).toBe(events[0].object.metadata.deletionTimestamp);
  });
});
