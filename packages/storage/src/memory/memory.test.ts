import { describe, expect, it, vi } from 'vitest';
import { isStorageError } from '../errors.js';
import { runStorageConformance } from '../testing/index.js';
import { createMemoryBackend } from './index.js';

runStorageConformance('memory', () => createMemoryBackend());

const bytes = (s: string) => new TextEncoder().encode(s);

describe('memory backend', () => {
  it('serves a read at a future revision once it is written within futureRevisionTimeoutMs', async () => {
    const s = createMemoryBackend({ futureRevisionTimeoutMs: 60_000 });
    const read = s.get('/registry/pods/ns/a', { revision: 2 });
    await s.create('/registry/pods/ns/a', bytes('a1'));
    await s.update('/registry/pods/ns/a', bytes('a2'), 1);
    const r = await read;
    expect([r.revision, r.kv?.modRevision]).toEqual([2, 2]);
    await s.close();
  });

  it('rejects waiting reads and later calls with Unreachable once closed', async () => {
    const s = createMemoryBackend({ futureRevisionTimeoutMs: 60_000 });
    const read = s.get('/registry/pods/ns/a', { revision: 5 });
    await s.close();
    await expect(read).rejects.toMatchObject({ code: 'Unreachable' });
    await expect(s.currentRevision()).rejects.toMatchObject({ code: 'Unreachable' });
    const errors: Error[] = [];
    s.watch({ prefix: '/', afterRevision: 0 }, { onEvent: () => {}, onError: (e) => errors.push(e) });
    await Promise.resolve();
    expect(errors.map((e) => isStorageError(e, 'Unreachable'))).toEqual([true]);
  });

  it("hands a turn's writes to a watcher together, before any of them is answered (as SQLite's group commit)", async () => {
    const s = createMemoryBackend();
    const seen: number[][] = [];
    let batch: number[] | undefined;
    s.watch({ prefix: '/registry/', afterRevision: 0 }, {
      onEvent: (e) => {
        if (!batch) {
          batch = [];
          seen.push(batch);
          queueMicrotask(() => (batch = undefined));
        }
        batch.push(e.kv.modRevision);
      },
      onError: () => {},
    });
    const answered: number[][][] = [];
    // Each write from its own callback, as a server's requests come.
    const writeFromCallback = (i: number) => new Promise<void>((resolve) => setImmediate(() => {
      void s.create(`/registry/cm/ns/c${i}`, bytes(String(i))).then(() => {
        answered.push(seen.map((b) => [...b]));
        resolve();
      });
    }));
    await Promise.all([1, 2, 3].map(writeFromCallback));
    expect(answered).toEqual([[[1, 2, 3]], [[1, 2, 3]], [[1, 2, 3]]]);
    // A write is visible to reads before it is answered.
    const pending = s.create('/registry/cm/ns/c4', bytes('4'));
    expect((await s.get('/registry/cm/ns/c4')).kv?.modRevision).toBe(4);
    await pending;
    expect(seen).toEqual([[1, 2, 3], [4]]);
    await s.close();
  });

  it('answers writes while a test fakes timers', async () => {
    vi.useFakeTimers();
    try {
      const s = createMemoryBackend();
      await s.create('/registry/cm/ns/a', bytes('a'));
      expect((await s.update('/registry/cm/ns/a', bytes('b'), 1)).modRevision).toBe(2);
      expect((await s.delete('/registry/cm/ns/a')).modRevision).toBe(3);
      await s.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('lists pages of a large collection at past revisions', async () => {
    const s = createMemoryBackend();
    const key = (i: number) => `/registry/pods/ns/p${String(i).padStart(6, '0')}`;
    for (let i = 0; i < 100_000; i++) await s.create(key(i), bytes(String(i)));
    const first = await s.list({ prefix: '/registry/pods/', limit: 500 });
    await s.delete(key(0));
    await s.create(`${key(50_000)}x`, bytes('new'));
    let startKey: string | undefined = `${first.kvs[499].key}\u0000`;
    let seen = 500;
    while (startKey) {
      const page = await s.list({ prefix: '/registry/pods/', limit: 500, startKey, revision: first.revision });
      seen += page.kvs.length;
      expect(page.remaining).toBe(100_000 - seen);
      startKey = page.more ? `${page.kvs[page.kvs.length - 1].key}\u0000` : undefined;
    }
    expect(seen).toBe(100_000);
    expect(await s.count('/registry/pods/')).toBe(100_000);
    // 100,000 writes: seconds on a machine busy with other work, so a budget far above vitest's 5 s default.
  }, 60_000);
});
