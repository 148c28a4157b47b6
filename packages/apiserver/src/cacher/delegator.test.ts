import { isStatusError, type KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeForStorage } from '../storage/codec.js';
import type { ListRequest, ObjectStorage, WatcherEvent } from '../storage/interfaces.js';
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

  it('get: unset reads the cache only while it holds storage\'s current revision and the object, else storage', async () => {
    // Not ready: storage, for unset and for "0" alike (without waiting for the cache).
    expect(await storage.get(key('a'), { resourceVersion: '', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
    expect(await storage.get(key('a'), { resourceVersion: '0', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
    expect(reads.get).toBe(2);
    await cache.start();
    expect(await storage.get(key('a'), { resourceVersion: '', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
    expect(reads.get).toBe(2);
    // An object the cache does not have is looked for in storage (a value the cache could not decode fails there).
    expect(await storage.get(key('none'), { resourceVersion: '', keyPrefix: PREFIX })).toBeUndefined();
    expect(reads.get).toBe(3);
  });

  it('get: unset reads storage while the cache has not seen the latest write', async () => {
    // Storage whose watch delivers its events late: the cache lags behind every write for a while.
    const slow: StorageBackend = {
      ...backend,
      watch: (options, handlers) => backend.watch(options, { ...handlers, onEvent: (e) => void setTimeout(() => handlers.onEvent(e), 30) }),
    };
    const slowCache = createWatchCache(slow, [PREFIX], { freshnessWaitMs: 50, minRequestTimeoutSeconds: 0 });
    const c = counted(createObjectStorage(slow));
    const delegated = createCacheDelegator(c.wrapped, slowCache);
    await slowCache.start();
    try {
      const rv = (await backend.update(key('a'), encodeForStorage(cm('a', '2')), slowCache.revision)).modRevision;
      expect(slowCache.revision).toBeLessThan(rv);
      expect(await delegated.get(key('a'), { resourceVersion: '', keyPrefix: PREFIX })).toMatchObject({ data: { value: '2' } });
      expect(c.reads.get).toBe(1);
      expect(await slowCache.waitFor(rv, 2000)).toBe(true);
      expect(await delegated.get(key('a'), { resourceVersion: '', keyPrefix: PREFIX })).toMatchObject({ data: { value: '2' } });
      expect(c.reads.get).toBe(1);
    } finally {
      slowCache.stop();
    }
  });

  it('get: unset always reads storage that must be asked for its revision (etcd)', async () => {
    const remote: StorageBackend = { ...backend, localRevision: false };
    const remoteCache = createWatchCache(remote, [PREFIX], { freshnessWaitMs: 50, minRequestTimeoutSeconds: 0 });
    const c = counted(createObjectStorage(remote));
    const delegated = createCacheDelegator(c.wrapped, remoteCache);
    await remoteCache.start();
    try {
      expect(await delegated.get(key('a'), { resourceVersion: '', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
      expect(c.reads.get).toBe(1);
    } finally {
      remoteCache.stop();
    }
  });

  it('get: "0" and a reached version read the cache; an unreached one is 504', async () => {
    await cache.start();
    expect(await storage.get(key('a'), { resourceVersion: '0', keyPrefix: PREFIX })).toMatchObject({ metadata: { name: 'a' } });
    expect(await storage.get(key('a'), { resourceVersion: String(cache.revision), keyPrefix: PREFIX })).toMatchObject({ data: { value: '1' } });
    expect(reads.get).toBe(0);
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

describe('cache delegator: waits, snapshots and watches', () => {
  let backend: StorageBackend;
  let cache: WatchCache;
  let reads: { get: number; list: number };
  let storage: ObjectStorage;

  const setup = async (options: Parameters<typeof createWatchCache>[2] = {}) => {
    backend = createMemoryBackend();
    await backend.create(key('a'), encodeForStorage(cm('a')));
    cache = createWatchCache(backend, [PREFIX], { freshnessWaitMs: 50, minRequestTimeoutSeconds: 0, ...options });
    const c = counted(createObjectStorage(backend));
    reads = c.reads;
    storage = createCacheDelegator(c.wrapped, cache);
    await cache.start();
  };
  afterEach(() => cache?.stop());

  /** Writes through storage and waits until the cache has seen it. */
  const write = async (name: string, value: string) => {
    const { kv } = await backend.get(key(name));
    if (kv) await backend.update(key(name), encodeForStorage(cm(name, value)), kv.modRevision);
    else await backend.create(key(name), encodeForStorage(cm(name, value)));
    expect((await cache.catchUp()).caughtUp).toBe(true);
    return cache.revision;
  };

  const watch = async (resourceVersion: string, controller = new AbortController()) => {
    const encoder = new TextEncoder();
    const stream = await storage.watch({
      keyPrefix: PREFIX, prefix: `${PREFIX}default/`, options: { resourceVersion }, matches: () => true,
      bookmark: (rv) => ({ metadata: { resourceVersion: String(rv) } }),
      frame: (e: WatcherEvent) => encoder.encode(`${JSON.stringify({ type: e.type, object: e.object })}\n`),
      signal: controller.signal,
    });
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const events: { type: string; object: any }[] = [];
    return {
      /** The next `n` events, as `TYPE name=value` (or the Status of an ERROR). */
      async next(n: number) {
        while (events.length < n) {
          const chunk = await reader.read();
          if (chunk.done) break;
          buffered += decoder.decode(chunk.value, { stream: true });
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          events.push(...lines.map((l) => JSON.parse(l)));
        }
        return events.splice(0, n).map((e) => (e.type === 'ERROR' ? e : `${e.type} ${e.object.metadata.name}=${e.object.data.value}`));
      },
      stop: () => controller.abort(),
    };
  };

  it('list Not older than: a version reached is served by the cache; one never reached is 504 after the wait', async () => {
    await setup();
    const rv = await write('b', '1');
    expect(names((await storage.getList(list({ mode: 'notOlderThan', revision: rv }))).items)).toEqual(['a', 'b']);
    expect(reads.list).toBe(0);
    expect(await status(storage.getList(list({ mode: 'notOlderThan', revision: rv + 100 })))).toEqual({
      code: 504, message: `Timeout: Too large resource version: ${rv + 100}, current: ${rv}`,
    });
  });

  it('list Exact: a version never reached is 504; without ListFromCacheSnapshot a past one is read from storage', async () => {
    await setup();
    const rv = cache.revision;
    expect(await status(storage.getList(list({ mode: 'exact', revision: rv + 100 })))).toMatchObject({ code: 504 });
    cache.stop();

    await setup({ listFromCacheSnapshot: false });
    const before = cache.revision;
    await write('a', '2');
    const past = await storage.getList(list({ mode: 'exact', revision: before }));
    expect([past.revision, past.items.map((o) => o.data)]).toEqual([before, [{ value: '1' }]]);
    expect(reads.list).toBe(1);
  });

  it('list Exact of a revision the cache no longer holds goes to storage, which answers Compacted once it forgot it too', async () => {
    await setup();
    const before = cache.revision;
    await write('a', '2');
    const now = await write('a', '3');
    await backend.compact(now);
    cache.compacted(now);
    const err = await storage.getList(list({ mode: 'exact', revision: before })).catch((e: unknown) => e);
    expect(reads.list).toBe(1);
    expect((err as { code?: string }).code).toBe('Compacted');
  });

  it('get without a collection prefix reads storage whatever the resourceVersion', async () => {
    await setup();
    expect(await storage.get(key('a'), { resourceVersion: '0' })).toMatchObject({ metadata: { name: 'a' } });
    expect(reads.get).toBe(1);
  });

  it('watch "0" starts with the state; watch N replays only what came after N', async () => {
    await setup();
    const rv1 = await write('a', '2');
    await write('b', '1');
    const fromState = await watch('0');
    expect(await fromState.next(2)).toEqual(['ADDED a=2', 'ADDED b=1']);
    const fromRv = await watch(String(rv1));
    await write('a', '3');
    expect(await fromRv.next(2)).toEqual(['ADDED b=1', 'MODIFIED a=3']);
    expect(await fromState.next(1)).toEqual(['MODIFIED a=3']);
    fromState.stop();
    fromRv.stop();
  });

  it('watch from a version older than the cache\'s history: one ERROR event with 410 Expired', async () => {
    await setup();
    const old = cache.revision;
    await write('a', '2');
    const now = await write('a', '3');
    await backend.compact(now);
    cache.compacted(now);
    const w = await watch(String(old));
    const [event] = (await w.next(1)) as { type: string; object: { code: number; reason: string; message: string } }[];
    expect(event.type).toBe('ERROR');
    expect(event.object).toMatchObject({ code: 410, reason: 'Expired' });
    expect(event.object.message).toMatch(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
  });
});
