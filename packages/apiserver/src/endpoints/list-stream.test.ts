import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../cacher/cache-event.js';
import { encodeCborListInSlices, jsonListChunks, streamJsonList, streamYamlList } from './list-stream.js';
import { withoutTypeMeta } from './media/shared-json.js';
import { decodeCbor, encodeCbor } from './media/cbor-codec.js';
import { toYaml } from './media/yaml.js';

const items = [
  { metadata: { name: 'plain', labels: { a: '1' } }, data: { key: 'value' } },
  // Folded at the line width: inside the list it must fold where the whole list's encoding folds it.
  { metadata: { name: 'long' }, data: { text: 'word '.repeat(60).trim(), url: `https://example.com/${'x'.repeat(150)}` } },
  { metadata: { name: 'multi' }, data: { script: '#!/bin/sh\necho "hi"\n  indented\n', trailing: 'a\n\n' } },
  { metadata: { name: 'scalars' }, data: { yes: 'yes', no: 'no', on: 'on', num: '0x1F', date: '2001-12-14', null: 'null', merge: '<<', eq: '=' } },
  { metadata: { name: 'empty', annotations: {} }, data: {}, binaryData: { b: 'AAEC' }, list: [], nested: [[1, 2], { a: [] }] },
  { metadata: { name: 'unicode' }, data: { emoji: '😀 ünïcödé', tab: 'a\tb', colon: 'a: b', hash: 'a #b', lead: ' space' } },
];

/** A list's chunks as the client reads them. */
const jsonList = (list: never, typed: boolean) => Buffer.concat(jsonListChunks(list, typed));

describe('jsonListChunks and streamJsonList', () => {
  // Cache objects (frozen) and others, in both orders of apiVersion and kind, and without them.
  const itemOf = (i: number) => {
    const item = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `a-${i}` }, data: { k: 'ünï 😀' } },
      { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `b-${i}` } },
      { metadata: { name: `c-${i}` }, apiVersion: 'v1', kind: 'ConfigMap' },
      { metadata: { name: `d-${i}` } },
    ][i % 4];
    return i % 3 === 0 ? item : deepFreeze(item);
  };

  for (const n of [0, 1, 2, 499, 500, 501, 1_001]) {
    it(`gives JSON.stringify of the list, typed or not, in one piece and streamed: ${n} items`, async () => {
      const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9', continue: 'items' }, items: Array.from({ length: n }, (_, i) => itemOf(i)) };
      for (const typed of [true, false]) {
        const want = JSON.stringify({ ...list, items: typed ? list.items.map((i) => withoutTypeMeta(i as never)) : list.items }) + '\n';
        expect(Buffer.from(jsonList(list as never, typed)).toString('utf8')).toBe(want);
        expect(await new Response(streamJsonList(list as never, false, typed)).text()).toBe(want);
        // Twice: the second time from the items' kept JSON.
        expect(Buffer.from(jsonList(list as never, typed)).toString('utf8')).toBe(want);
      }
    });
  }

  it('gzips the stream when asked', async () => {
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [itemOf(1)] };
    const body = Buffer.from(await new Response(streamJsonList(list as never, true, true)).arrayBuffer());
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(body).toString('utf8')).toBe(JSON.stringify({ ...list, items: list.items.map((i) => withoutTypeMeta(i as never)) }) + '\n');
  });
});

describe('streamYamlList', () => {
  it('writes the same text as encoding the whole list at once, for strings YAML folds, quotes and blocks', async () => {
    const many = Array.from({ length: 130 }, (_, i) => ({ ...items[i % items.length], metadata: { ...items[i % items.length].metadata, name: `${items[i % items.length].metadata.name}-${i}` } }));
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '42', continue: 'token' }, items: many };
    const streamed = await new Response(streamYamlList(list as never, false)).text();
    expect(streamed).toBe(toYaml(list));
  });

  it('maps each item as it is written', async () => {
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: [{ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } }] };
    const streamed = await new Response(streamYamlList(list as never, false, (item) => ({ metadata: (item as { metadata: unknown }).metadata }))).text();
    expect(streamed).toBe(toYaml({ ...list, items: [{ metadata: { name: 'a' } }] }));
  });
});

describe('encodeCborListInSlices', () => {
  it('gives the bytes encodeCbor gives for the whole list, for every size of array header', async () => {
    for (const n of [0, 1, 23, 24, 255, 256, 1_500, 70_000]) {
      const list = {
        kind: 'ConfigMapList',
        apiVersion: 'v1',
        metadata: { resourceVersion: '7', continue: 'items' },
        items: Array.from({ length: n }, (_, i) => ({ metadata: { name: `cm-${i}`, labels: { items: 'items' } }, data: { items: String(i) } })),
      };
      const sliced = await encodeCborListInSlices(list);
      expect(Buffer.from(sliced).equals(Buffer.from(encodeCbor(list))), `${n} items`).toBe(true);
    }
  });

  it('turns the event loop between slices of 500', async () => {
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: Array.from({ length: 5_000 }, (_, i) => ({ metadata: { name: `cm-${i}` } })) };
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const bytes = await encodeCborListInSlices(list);
    running = false;
    expect(turns).toBeGreaterThanOrEqual(9);
    expect((decodeCbor(bytes) as { items: unknown[] }).items).toHaveLength(5_000);
  });
});
