import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from '@kapi/storage';
import { decodeFromStorage, encodeForStorage } from '../storage/codec.js';
import { createWatchCache } from './cacher.js';

const PREFIX = '/registry/configmaps/';
const enc = (name: string, v: number) => encodeForStorage({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v: String(v) } });

describe('watch cache snapshots', () => {
  it('rebuild exactly what storage holds at every revision in the window, page by page', async () => {
    const storage = createMemoryBackend();
    await storage.create(`${PREFIX}ns/seed`, enc('seed', 0));
    const cache = createWatchCache(storage, [PREFIX]);
    await cache.start();
    // A deterministic mix of creates, updates and deletes over a handful of keys.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const revisions: number[] = [];
    for (let i = 1; i <= 300; i++) {
      const key = `${PREFIX}ns/k${rand(12)}`;
      const { kv } = await storage.get(key);
      if (!kv) revisions.push((await storage.create(key, enc(key, i))).modRevision);
      else if (rand(4) === 0) revisions.push((await storage.delete(key)).modRevision);
      else revisions.push((await storage.update(key, enc(key, i), kv.modRevision)).modRevision);
    }
    expect(await cache.waitFor(revisions[revisions.length - 1], 1000)).toBe(true);
    const collection = cache.collection(PREFIX);
    for (const at of revisions) {
      expect(cache.hasSnapshot(collection, at)).toBe(true);
      for (const limit of [0, 3]) {
        // Every page of the listing at that revision, as storage and the cache give it.
        let startKey: string | undefined;
        for (;;) {
          const fromStorage = await storage.list({ prefix: `${PREFIX}ns/`, revision: at, limit: limit || undefined, startKey });
          const fromCache = collection.list({ prefix: `${PREFIX}ns/`, at, limit, startKey, selects: () => true });
          expect(fromCache.items).toEqual(fromStorage.kvs.map((kv) => decodeFromStorage(kv)));
          expect(fromCache.more).toBe(fromStorage.more);
          expect(fromCache.remaining).toBe(fromStorage.remaining);
          if (!fromStorage.more) break;
          startKey = `${fromCache.lastKey}\u0000`;
        }
      }
    }
    cache.stop();
  });

  it('keep history back to the compaction and no further', async () => {
    const storage = createMemoryBackend();
    const cache = createWatchCache(storage, [PREFIX]);
    await cache.start();
    const a = await storage.create(`${PREFIX}ns/a`, enc('a', 1));
    const b = await storage.update(`${PREFIX}ns/a`, enc('a', 2), a.modRevision);
    await cache.waitFor(b.modRevision, 1000);
    const collection = cache.collection(PREFIX);
    expect(collection.eventsAfter(a.modRevision - 1, PREFIX)?.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    cache.compacted(b.modRevision);
    expect(collection.eventsAfter(a.modRevision - 1, PREFIX)).toBeUndefined();
    expect(collection.eventsAfter(a.modRevision, PREFIX)?.map((e) => e.type)).toEqual(['MODIFIED']);
    expect(cache.hasSnapshot(collection, a.modRevision - 1)).toBe(false);
    cache.stop();
  });

  it('serve cached objects frozen, so no reader can change what others read', async () => {
    const storage = createMemoryBackend();
    await storage.create(`${PREFIX}ns/a`, enc('a', 1));
    const cache = createWatchCache(storage, [PREFIX]);
    await cache.start();
    const obj = cache.collection(PREFIX).get(`${PREFIX}ns/a`)!;
    expect(() => {
      (obj.metadata as Record<string, unknown>).name = 'changed';
    }).toThrow(TypeError);
    cache.stop();
  });
});
