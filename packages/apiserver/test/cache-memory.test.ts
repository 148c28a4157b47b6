import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, heapUsedAfterGc as heapUsed, settled, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const KEY = '/registry/configmaps/default/';
/** The bench's objects (bench/src/objects.mjs): four 256-character values. */
const data = Object.fromEntries([0, 1, 2, 3].map((k) => [`key-0${k}`, `${String.fromCharCode(97 + k)}${'x'.repeat(255)}`]));
const COUNT = 5_000;

describe('the watch cache holds objects compactly (issue 16)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await settled(h);
  });
  afterAll(() => h.server.stop());

  it('costs the heap less than 1.6× the JSON of the objects it holds', async () => {
    // One ConfigMap written through the API (its managedFields as kube writes them), stored again under other names
    // straight into storage, as another server sharing it would: what is measured is the cache's copy of each.
    const model = await h.req('POST', CM, configMap('model', data));
    expect(model.status).toBe(201);
    const jsonBytes = Buffer.byteLength(JSON.stringify(model.body));
    const stored = new TextDecoder().decode((await h.storage.get(`${KEY}model`)).kv!.value);
    const value = (i: number) => new TextEncoder().encode(stored.replaceAll('"model"', `"cm-${i}"`).replace(/"uid":"[^"]*"/, `"uid":"${crypto.randomUUID()}"`));
    const write = async (from: number, to: number) => {
      let revision = 0;
      for (let i = from; i < to; i++) revision = (await h.storage.create(`${KEY}cm-${i}`, value(i))).modRevision;
      // Read through the cache once it holds them all.
      const list = await h.req('GET', `${CM}?resourceVersion=${revision}&resourceVersionMatch=NotOlderThan&limit=1`);
      expect(list.status).toBe(200);
    };
    await write(0, 500); // the cache's tables grown, the code warm
    const before = heapUsed();
    const storedBefore = process.memoryUsage().arrayBuffers;
    await write(500, 500 + COUNT);
    const perObject = (heapUsed() - before) / COUNT;
    // The memory backend's values are ArrayBuffers, outside the heap (counted apart: the check that they are).
    expect(process.memoryUsage().arrayBuffers - storedBefore).toBeGreaterThan(COUNT * jsonBytes * 0.8);
    // Decoded as they were, the objects took 1.72–1.74× their JSON in the heap (the object's key, its history event
    // and the backend's index included); with their empty objects, fieldsV1 trees and timestamps shared, 1.44×.
    expect(perObject).toBeLessThan(1.6 * jsonBytes);
    const all = await h.req('GET', `${CM}?resourceVersion=0`);
    expect(all.body.items).toHaveLength(COUNT + 501);
    expect(all.body.items[1234]).toMatchObject({ metadata: { managedFields: model.body.metadata.managedFields }, data });
  }, 60_000);
});
