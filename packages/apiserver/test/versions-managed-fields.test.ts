import { metaDescriptor, metaFieldTree, type GroupDefinition, type KubeObject, type ResourceInfo } from '@kapi/apimachinery';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupPlugin, KindConversion } from '../src/index.js';
import { ALL_PLUGINS, startHarness, type Harness } from './harness.js';

// One kind served in two versions, stored in v1: v1's `spec.old` is v2's `spec.new`.
const GROUP = 'example.com';
const info = (version: string): ResourceInfo => ({
  group: GROUP, version, kind: 'Thing', listKind: 'ThingList', plural: 'things', singular: 'thing', scope: 'Namespaced',
  shortNames: [], categories: [], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
  subresources: {}, printerColumns: [], protobuf: { message: '', listMessage: '' }, patchMeta: {},
});
const definition: GroupDefinition = {
  group: GROUP, packageName: 'test/things', versions: ['v1', 'v2'], strategicMergePatch: false,
  resources: [info('v1'), info('v2')],
  validators: { [`${GROUP}/v1/Thing`]: () => [], [`${GROUP}/v2/Thing`]: () => [] },
  fieldTree: {
    types: {
      ...metaFieldTree.types,
      ...Object.fromEntries(['v1', 'v2'].map((v) => [`${GROUP}/${v}/Thing`, { props: { apiVersion: 0, kind: 0, metadata: 'meta.k8s.io/v1/ObjectMeta', spec: `${GROUP}/${v}/Thing.Spec` } }])),
      ...Object.fromEntries(['v1', 'v2'].map((v) => [`${GROUP}/${v}/Thing.Spec`, { props: { [v === 'v1' ? 'old' : 'new']: 0, keep: 0, other: 0 } }])),
    },
  } as GroupDefinition['fieldTree'],
  protobuf: metaDescriptor,
};

function convertOne(obj: KubeObject, to: string): KubeObject {
  const spec = { ...((obj.spec as Record<string, unknown>) ?? {}) };
  if (to === `${GROUP}/v2` && 'old' in spec) {
    spec.new = spec.old;
    delete spec.old;
  }
  if (to === `${GROUP}/v1` && 'new' in spec) {
    spec.old = spec.new;
    delete spec.new;
  }
  return { ...obj, apiVersion: to, ...(obj.spec ? { spec } : {}) };
}

/** The hand-written conversion, answering asynchronously as a webhook would; `calls` counts its objects by target. */
function thingsPlugin() {
  const calls: string[] = [];
  const conversion: KindConversion = {
    storageVersion: 'v1',
    convert: async (objects, to) => {
      for (const _ of objects) calls.push(to);
      return objects.map((o) => convertOne(o, to));
    },
  };
  const plugin: GroupPlugin = { definition, conversions: { Thing: conversion } };
  return { plugin, calls };
}

const path = (version: string, name?: string) => `/apis/${GROUP}/${version}/namespaces/default/things${name ? `/${name}` : ''}`;
const thing = (version: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/${version}`, kind: 'Thing', metadata: { name: 'x' }, spec });
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

const apply = (h: Harness, version: string, manager: string, spec: Record<string, unknown>, force = false) =>
  h.req('PATCH', `${path(version, 'x')}?fieldManager=${manager}${force ? '&force=true' : ''}`, thing(version, spec), APPLY);

/** The fields (`f:` keys below spec) a manager's entry owns, and its entry. */
const entry = (obj: any, manager: string) => obj.metadata.managedFields?.find((e: any) => e.manager === manager);
const specFields = (obj: any, manager: string) => Object.keys(entry(obj, manager)?.fieldsV1?.['f:spec'] ?? {}).filter((k) => k !== '.').sort();

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

async function start() {
  const things = thingsPlugin();
  h = await startHarness({}, { plugins: [...ALL_PLUGINS, things.plugin] });
  return { h, calls: things.calls };
}

describe('managed fields of a kind served in two versions', () => {
  it('a second applier in another version conflicts on the first one\'s field, named in the first one\'s version; force takes it', async () => {
    const { h } = await start();
    const first = await apply(h, 'v1', 'alice', { old: 'a', keep: 'k' });
    expect(first.status).toBe(201);

    const conflict = await apply(h, 'v2', 'bob', { new: 'b' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.old');
    expect(conflict.body.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.old' }]);

    const forced = await apply(h, 'v2', 'bob', { new: 'b' }, true);
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toEqual({ new: 'b', keep: 'k' });
    expect(entry(forced.body, 'alice')).toMatchObject({ operation: 'Apply', apiVersion: `${GROUP}/v1` });
    expect(specFields(forced.body, 'alice')).toEqual(['f:keep']);
    expect(entry(forced.body, 'bob')).toMatchObject({ operation: 'Apply', apiVersion: `${GROUP}/v2` });
    expect(specFields(forced.body, 'bob')).toEqual(['f:new']);

    // Read in v1, the entries are the same: each keeps the apiVersion (and paths) it was written in.
    const inV1 = await h.req('GET', path('v1', 'x'));
    expect(inV1.body.spec).toEqual({ old: 'b', keep: 'k' });
    expect(inV1.body.metadata.managedFields).toEqual(forced.body.metadata.managedFields);

    // alice now conflicts with bob, on bob's field in bob's version.
    const back = await apply(h, 'v1', 'alice', { old: 'a', keep: 'k' });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('Apply failed with 1 conflict: conflict with "bob": .spec.new');
  });

  it('an Update in v1 that removes a field drops it from the set of a manager that applied it in v2', async () => {
    const { h } = await start();
    expect((await apply(h, 'v2', 'bob', { new: 'b', keep: 'k' })).status).toBe(201);
    const current = (await h.req('GET', path('v1', 'x'))).body;
    expect(current.spec).toEqual({ old: 'b', keep: 'k' });
    const replaced = await h.req('PUT', `${path('v1', 'x')}?fieldManager=carol`, { ...current, spec: { keep: 'k' } });
    expect(replaced.status).toBe(200);
    expect(specFields(replaced.body, 'bob')).toEqual(['f:keep']);
    expect(entry(replaced.body, 'bob').apiVersion).toBe(`${GROUP}/v2`);
    // A removal is no field of carol's.
    expect(entry(replaced.body, 'carol')).toBeUndefined();

    // An update that changes bob's field (in v1 terms) takes it from bob; carol's entry is in v1.
    const changed = await h.req('PATCH', `${path('v1', 'x')}?fieldManager=carol`, { spec: { keep: 'changed' } }, { 'content-type': 'application/merge-patch+json' });
    expect(changed.status).toBe(200);
    expect(entry(changed.body, 'bob')).toBeUndefined();
    expect(entry(changed.body, 'carol')).toMatchObject({ operation: 'Update', apiVersion: `${GROUP}/v1` });
    expect(specFields(changed.body, 'carol')).toEqual(['f:keep']);
  });

  it('an applier that switches versions keeps one entry, written in the new version, and prunes what it stopped applying', async () => {
    const { h } = await start();
    expect((await apply(h, 'v1', 'alice', { old: 'a', keep: 'k' })).status).toBe(201);
    const again = await apply(h, 'v2', 'alice', { new: 'a' });
    expect(again.status).toBe(200);
    expect(again.body.spec).toEqual({ new: 'a' });
    expect(again.body.metadata.managedFields).toHaveLength(1);
    expect(entry(again.body, 'alice')).toMatchObject({ operation: 'Apply', apiVersion: `${GROUP}/v2` });
    expect(specFields(again.body, 'alice')).toEqual(['f:new']);
  });

  it('drops managers of a version no longer served, on updates and applies', async () => {
    const { h } = await start();
    const stored = (await apply(h, 'v1', 'alice', { old: 'a' })).body;
    // An entry written in a version the kind is not served in any more.
    const ghost = { ...entry(stored, 'alice'), manager: 'ghost', apiVersion: `${GROUP}/v0` };
    const withGhost = { ...stored, metadata: { ...stored.metadata, managedFields: [...stored.metadata.managedFields, ghost] } };
    const put = await h.req('PUT', `${path('v1', 'x')}?fieldManager=alice`, withGhost);
    expect(put.status).toBe(200);
    expect(put.body.metadata.managedFields.map((e: any) => e.manager)).toEqual(['alice']);

    // One already stored (by an earlier server, say) goes at the next apply.
    const key = `/registry/${GROUP}/things/default/x`;
    const kv = (await h.storage.get(key)).kv!;
    const inStorage = JSON.parse(new TextDecoder().decode(kv.value));
    inStorage.metadata.managedFields.push(ghost);
    await h.storage.update(key, new TextEncoder().encode(JSON.stringify(inStorage)), kv.modRevision);
    expect((await h.req('GET', path('v2', 'x'))).body.metadata.managedFields.map((e: any) => e.manager)).toEqual(['alice', 'ghost']);
    const next = await apply(h, 'v2', 'bob', { other: 'o' });
    expect(next.status).toBe(200);
    expect(next.body.metadata.managedFields.map((e: any) => e.manager).sort()).toEqual(['alice', 'bob']);
  });

  it('converts only what other managers\' versions need, once per version and write', async () => {
    const { h, calls } = await start();
    await apply(h, 'v1', 'alice', { old: 'a' });
    await apply(h, 'v1', 'carol', { keep: 'k' });
    calls.length = 0;
    // Two v1 managers, the request in v2: the live object and the merged one go to v1 once for both managers (and
    // the Store converts the stored object to v2 and the result back to v1, as for any write).
    expect((await apply(h, 'v2', 'bob', { other: 'o' })).status).toBe(200);
    expect(calls.filter((to) => to === `${GROUP}/v1`)).toHaveLength(3);
  });

  it('a kind served in one version drops only entries of versions it is not served in', async () => {
    const { h } = await start();
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    const created = await h.req('POST', '/api/v1/namespaces/default/configmaps?fieldManager=alice', cm);
    const alice = created.body.metadata.managedFields[0];
    const ghost = { ...alice, manager: 'ghost', apiVersion: 'v0' };
    const put = await h.req('PUT', '/api/v1/namespaces/default/configmaps/c?fieldManager=bob', { ...created.body, data: { a: '1', b: '2' }, metadata: { ...created.body.metadata, managedFields: [alice, ghost] } });
    expect(put.status).toBe(200);
    expect(put.body.metadata.managedFields.map((e: any) => `${e.manager} ${e.apiVersion}`)).toEqual(['alice v1', 'bob v1']);
  });
});
