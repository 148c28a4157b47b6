import { describe, expect, it } from 'vitest';
import { encodeCborListInSlices, streamYamlList } from './list-stream.js';
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
