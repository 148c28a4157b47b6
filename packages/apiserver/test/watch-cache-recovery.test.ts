// The watch cache when storage misbehaves: a storage watch that fails (unreachable, or compacted past the cache),
// values written around the API that cannot be decoded, and long histories replayed to resuming clients.
import { createMemoryBackend, newCompactedError, newUnreachableError, type StorageBackend, type WatchHandlers } from '@kapi/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { configMap, eventNames, openWatch, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const KEY = '/registry/configmaps/default/g';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (s: string) => new TextEncoder().encode(s);

/** A memory backend whose watches can be failed and whose reads can be made to fail, as an outage would. */
function flakyStorage() {
  const inner = createMemoryBackend();
  let down = false;
  let failWatch: ((error: Error) => void) | undefined;
  const up = <T>(f: () => Promise<T>) => (down ? Promise.reject(newUnreachableError('storage is down')) : f());
  const storage: StorageBackend = {
    ...inner,
    currentRevision: () => up(() => inner.currentRevision()),
    get: (k, o) => up(() => inner.get(k, o)),
    list: (o) => up(() => inner.list(o)),
    watch(opts, handlers: WatchHandlers) {
      let open = true;
      const w = inner.watch(opts, { ...handlers, onEvent: (e) => open && handlers.onEvent(e) });
      failWatch = (error) => {
        open = false;
        w.stop();
        handlers.onError(error);
      };
      return { stop: () => ((open = false), w.stop()) };
    },
  };
  return { storage, inner, setDown: (d: boolean) => (down = d), failWatch: (e: Error) => failWatch!(e) };
}

describe('watch cache recovery', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  for (const [name, error] of [
    ['unreachable', newUnreachableError('gone')],
    ['compacted past the cache', newCompactedError(1, 2)],
  ] as const) {
    it(`storage watch ${name}: open watches end with an ERROR, new ones wait or get 429, then nothing is missed`, async () => {
      const flaky = flakyStorage();
      const h = await startHarness({}, { storage: flaky.storage, watchCache: { freshnessWaitMs: 200 } });
      stops.push(() => h.server.stop());
      await h.req('POST', CM, configMap('a'));
      const open = await openWatch(h, `${CM}?watch=1`);
      expect(eventNames(await open.next(1))).toEqual(['ADDED a']);

      flaky.setDown(true);
      flaky.failWatch(error);
      const [ended] = await open.next(1);
      expect(ended.type).toBe('ERROR');
      expect(ended.object).toMatchObject({ kind: 'Status', status: 'Failure' });
      // While the cache is down a watch is refused with 429 and Retry-After, never started from stale state.
      const refused = await h.req('GET', `${CM}?watch=1`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');

      flaky.setDown(false);
      // A write during the outage (another server on the same storage): the cache must not miss it.
      await flaky.inner.create('/registry/configmaps/default/b', text(JSON.stringify(configMap('b', {}, { namespace: 'default' }))));
      let again;
      for (let i = 0; i < 100; i++) {
        again = await openWatch(h, `${CM}?watch=1&timeoutSeconds=1`);
        if (again.status === 200) break;
        await sleep(50);
      }
      expect(again!.status).toBe(200);
      expect(eventNames(await again!.rest())).toEqual(['ADDED a', 'ADDED b']);
    });
  }
});

describe('values written around the API', () => {
  let h: Harness;
  afterEach(async () => h.server.stop());

  it('a request waiting for a cache that cannot fill is answered when the server stops, not when its wait ends', async () => {
    const flaky = flakyStorage();
    h = await startHarness({}, { storage: flaky.storage, watchCache: { freshnessWaitMs: 10 * 60_000 } });
    const server = h.server;
    await h.req('POST', CM, configMap('a'));
    const open = await openWatch(h, `${CM}?watch=1`);
    expect(eventNames(await open.next(1))).toEqual(['ADDED a']); // the cache is filled and watching storage
    flaky.setDown(true);
    flaky.failWatch(newUnreachableError('gone'));
    const waiting = Promise.resolve(server.fetch(new Request(`http://kapi.test${CM}?watch=1&resourceVersion=0`)));
    let answered = false;
    void waiting.then(() => (answered = true));
    await sleep(50);
    expect(answered).toBe(false);
    await server.stop();
    const res = await waiting; // within the test's timeout: the ten-minute wait is cut short by stop()
    expect(res.status).toBe(429);
    expect(((await res.json()) as { message: string }).message).toMatch(/storage is \(re\)initializing/);
  });

  it('a corrupt value leaves the cache (watchers see DELETED) and a repaired one comes back', async () => {
    h = await startHarness();
    const g = await h.req('POST', CM, configMap('g', { v: '1' }));
    const w = await openWatch(h, `${CM}?watch=1&resourceVersion=${g.body.metadata.resourceVersion}`);
    const corrupt = await h.storage.update(KEY, text('{"bad": '), Number(g.body.metadata.resourceVersion));
    const [gone] = await w.next(1);
    expect([gone.type, gone.object.metadata.name, gone.object.metadata.resourceVersion]).toEqual(['DELETED', 'g', String(corrupt.modRevision)]);
    expect((await h.req('GET', `${CM}?resourceVersion=0`)).body.items).toEqual([]);

    const repaired = { ...g.body, metadata: { ...g.body.metadata }, data: { v: 'repaired' } };
    delete repaired.metadata.resourceVersion;
    await h.storage.update(KEY, text(JSON.stringify(repaired)), corrupt.modRevision);
    const [back] = await w.next(1);
    expect([back.type, back.object.data]).toEqual(['ADDED', { v: 'repaired' }]);
    const list = await h.req('GET', CM);
    expect(list.body.items.map((i: any) => i.data.v)).toEqual(['repaired']);
    w.close();
  });

  it('a forced deletion of a corrupt object leaves no ghost in the cache', async () => {
    h = await startHarness({ AllowUnsafeMalformedObjectDeletion: true });
    const g = await h.req('POST', CM, configMap('g'));
    await h.storage.update(KEY, text('{"bad": '), Number(g.body.metadata.resourceVersion));
    const del = await h.req('DELETE', `${CM}/g`, { ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(del.status).toBe(200);
    for (const rv of ['', '0']) expect((await h.req('GET', `${CM}?resourceVersion=${rv}`)).body.items).toEqual([]);
    expect((await h.req('GET', `${CM}/g?resourceVersion=0`)).status).toBe(404);
  });
});

describe('resuming after a burst', () => {
  it('replays a history longer than the slow-watcher limit in one stream', async () => {
    const h = await startHarness({}, { watchCache: { maxQueuedPerWatcher: 5 } });
    const first = await h.req('POST', CM, configMap('x00'));
    for (let i = 1; i <= 20; i++) await h.req('POST', CM, configMap(`x${String(i).padStart(2, '0')}`));
    const w = await openWatch(h, `${CM}?watch=1&resourceVersion=${first.body.metadata.resourceVersion}&timeoutSeconds=1`);
    expect(eventNames(await w.rest())).toEqual(Array.from({ length: 20 }, (_, i) => `ADDED x${String(i + 1).padStart(2, '0')}`));
    await h.server.stop();
  });
});
