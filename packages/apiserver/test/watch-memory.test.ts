import { afterEach, describe, expect, it } from 'vitest';
import { configMap, heapUsedAfterGc as heapUsed, settled, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const BUDGET = 1024 * 1024;
const VALUE = 'x'.repeat(100_000);
const UPDATES = 100;

/** A watch read as a client reads it, keeping nothing but the count of events and whether it ended. */
async function watchCounting(h: Harness, path: string) {
  const res = await h.server.fetch(new Request(`http://kapi.test${path}`));
  const reader = res.body!.getReader();
  const state = { events: 0, ended: false };
  const done = (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      for (const byte of chunk.value) if (byte === 0x0a) state.events++;
    }
    state.ended = true;
  })();
  return { state, done, cancel: () => reader.cancel() };
}

describe('watchers hold no more than the watch cache may (issue 16: the 1 MB-patch flood)', () => {
  let h: Harness;
  afterEach(() => h.server.stop());

  it('a watcher that keeps up lets go of each event once it is sent: big updates do not pile up in it', async () => {
    h = await startHarness({}, { watchCache: { historyBytes: BUDGET }, storageHistoryBytes: BUDGET });
    await settled(h);
    expect((await h.req('POST', CM, configMap('big', { v: '' }))).status).toBe(201);
    const watch = await watchCounting(h, `${CM}?watch=1&fieldSelector=metadata.name%3Dbig`);
    const before = heapUsed();
    for (let i = 0; i < UPDATES; i++) expect((await h.req('PATCH', `${CM}/big`, { data: { v: `${i}${VALUE}` } }, MERGE)).status).toBe(200);
    for (let i = 0; i < 500 && watch.state.events < UPDATES + 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(watch.state.events).toBe(UPDATES + 1); // the initial ADDED and every update
    // 100 updates of 100 KB: the watcher held every one it had sent (10 MB) until it had sent 4,096; now what is
    // left is the cache's history, within its 1 MiB budget (plus the object itself).
    expect(heapUsed() - before).toBeLessThan(4 * BUDGET);
    await watch.cancel();
  }, 60_000);

  it('a watcher that does not read is ended once what it has not sent passes the history budget, not after 10,000 events', async () => {
    h = await startHarness({}, { watchCache: { historyBytes: BUDGET }, storageHistoryBytes: BUDGET });
    await settled(h);
    expect((await h.req('POST', CM, configMap('big', { v: '' }))).status).toBe(201);
    // A client that never reads: the server queues for it.
    const res = await h.server.fetch(new Request(`http://kapi.test${CM}?watch=1&fieldSelector=metadata.name%3Dbig`));
    const before = heapUsed();
    for (let i = 0; i < UPDATES; i++) expect((await h.req('PATCH', `${CM}/big`, { data: { v: `${i}${VALUE}` } }, MERGE)).status).toBe(200);
    expect(heapUsed() - before).toBeLessThan(4 * BUDGET);
    // It was ended: read now, it gives what it was sent before and then ends (the client re-watches from there).
    const text = await res.text();
    const events = text.trim().split('\n').map((line) => JSON.parse(line));
    expect(events.length).toBeLessThan(UPDATES);
    expect(events[0]).toMatchObject({ type: 'ADDED' });
  }, 60_000);

  it('one event bigger than the whole budget still reaches a watcher that keeps up', async () => {
    h = await startHarness({}, { watchCache: { historyBytes: 64 * 1024 } });
    await settled(h);
    expect((await h.req('POST', CM, configMap('big', { v: '' }))).status).toBe(201);
    const watch = await watchCounting(h, `${CM}?watch=1&fieldSelector=metadata.name%3Dbig`);
    for (let i = 0; i < 3; i++) {
      expect((await h.req('PATCH', `${CM}/big`, { data: { v: `${i}${VALUE}` } }, MERGE)).status).toBe(200);
      for (let t = 0; t < 500 && watch.state.events < i + 2; t++) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(watch.state).toEqual({ events: 4, ended: false });
    await watch.cancel();
  }, 60_000);
});
