import { isStatusError, type KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeForStorage } from '../storage/codec.js';
import type { ListRequest, ObjectStorage } from '../storage/interfaces.js';
import { createObjectStorage } from '../storage/object-storage.js';
import { createWatchCache, type WatchCache } from './cacher.js';
import { createCacheDelegator } from './delegator.js';

const PREFIX = '/registry/configmaps/';
const key = (name: string) => `${PREFIX}default/${name}`;
const cm = (name: string, value = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { value } });
const list = (plan: ListRequest['plan']): ListRequest => ({ keyPrefix: PREFIX, prefix: `${PREFIX}default/`, limit: 0, select: () => true, plan });
const names = (items: KubeObject[]) => items.map((o) => (o.metadata as { name: string }).name);

/** Object storage that counts the reads that reach it. */
function counted(storage: ObjectStorage) {
  const reads = { get: 0, list: 0 };
  const wrapped: ObjectStorage = {
    ...storage,
    get: (k, o) => (reads.get++, storage.get(k, o)),
    getList: (r) => (reads.list++, storage.getList(r)),
  };
  return { wrapped, reads };
}

async function status(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return { code: err.status.code, message: err.status.message };
    throw err;
  }
  return undefined;
}

describe('cache delegator: where each read is served', () => {
  let backend: StorageBackend;
  let cache: WatchCache;
  let reads: { get: number; list: number };
  let storage: ObjectStorage;

  beforeEach(async () => {
    backend = createMemoryBackend();
    await backend.create(key('a'), encodeForStorage(cm('a')));
    cache = createWatchCache(backend, [PREFIX], { freshnessWaitMs: 50, minRequestTimeoutSeconds: 0 });
    const c = counted(createObjectStorage(backend));
    reads = c.reads;
    storage = createCacheDelegator(c.wrapped, cache);
  });
  afterEach(() => cache.stop());

  it('get: unset reads storage; "0" and a reached version read the cache; an unreached one is 504', async () => {
    await cache.start();
    expect(await storage.get(key('a'), { resourceVersion: '', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
    expect(reads.get).toBe(1);
    expect(await storage.get(key('a'), { resourceVersion: '0', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
    expect(await storage.get(key('a'), { resourceVersion: String(cache.revision), keyPrefix: PREFIX })).toMatchObject({ data: { value: '1' } });
    expect(reads.get).toBe(1);
    expect(await status(storage.get(key('a'), { resourceVersion: '999', keyPrefix: PREFIX }))).toEqual({
      code: 504,
      message: `Timeout: Too large resource version: 999, current: ${cache.revision}`,
    });
  });

  it('list: Most recent and Any from the cache once ready; from storage before', async () => {
    expect(names((await storage.getList(list({ mode: 'any' }))).items)).toEqual(['a']);
    expect(reads.list).toBe(1);
    await cache.start();
    await backend.create(key('b'), encodeForStorage(cm('b')));
    expect(names((await storage.getList(list({ mode: 'consistent' }))).items)).toEqual(['a', 'b']);
    expect(names((await storage.getList(list({ mode: 'any' }))).items).length).toBeGreaterThan(0);
    expect(reads.list).toBe(1);
  });

  it('list: an Exact read of a past revision comes from a retained cache snapshot, and shows that revision', async () => {
    await cache.start();
    const before = cache.revision;
    await backend.update(key('a'), encodeForStorage(cm('a', '2')), before);
    const { caughtUp } = await cache.catchUp();
    expect(caughtUp).toBe(true);
    const past = await storage.getList(list({ mode: 'exact', revision: before }));
    expect(past.revision).toBe(before);
    expect(past.items.map((o) => o.data)).toEqual([{ value: '1' }]);
    expect(reads.list).toBe(0);
  });

  it('watch: 429 while the cache cannot be filled (storage unreachable)', async () => {
    await backend.close();
    const controller = new AbortController();
    const watch = storage.watch({
      keyPrefix: PREFIX, prefix: PREFIX, options: { resourceVersion: '' }, matches: () => true,
      bookmark: () => ({}), frame: () => new Uint8Array(), signal: controller.signal,
    });
    expect(await status(watch)).toEqual({ code: 429, message: 'storage is (re)initializing' });
  });
});
