import { describe, expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import type { StorageBackend } from '../types.js';
import { bytes, kv, record, viewEvent } from './helpers.js';

const A = '/registry/pods/ns/a';
const B = '/registry/pods/ns/b';
const PODS = '/registry/pods/';

export function describeWatch(backend: () => StorageBackend): void {
  describe('watch', () => {
    it('replays history after the revision, then delivers live events, in order', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('a1'));
      await s.update(A, bytes('a2'), r0 + 1);
      await s.create(B, bytes('b1'));
      await s.delete(A);
      const w = record(s, { prefix: PODS, afterRevision: r0 + 1 });
      expect(await w.next(3)).toEqual([
        { type: 'PUT', kv: kv(A, 'a2', r0 + 1, r0 + 2), prevKv: kv(A, 'a1', r0 + 1, r0 + 1), created: false },
        { type: 'PUT', kv: kv(B, 'b1', r0 + 3, r0 + 3), created: true },
        { type: 'DELETE', kv: kv(A, 'a2', r0 + 1, r0 + 4), prevKv: kv(A, 'a2', r0 + 1, r0 + 2), created: false },
      ]);
      await s.update(B, bytes('b2'), r0 + 3);
      await s.create(A, bytes('a3'));
      expect((await w.next(5)).slice(3)).toEqual([
        { type: 'PUT', kv: kv(B, 'b2', r0 + 3, r0 + 5), prevKv: kv(B, 'b1', r0 + 3, r0 + 3), created: false },
        { type: 'PUT', kv: kv(A, 'a3', r0 + 6, r0 + 6), created: true },
      ]);
      expect(w.errors).toEqual([]);
      w.watch.stop();
    });

    it('from the current revision delivers only later events, and never inside the write call', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('a1'));
      const w = record(s, { prefix: PODS, afterRevision: r0 + 1 });
      const write = s.update(A, bytes('a2'), r0 + 1);
      expect(w.events).toEqual([]);
      await write;
      expect(await w.next(1)).toEqual([
        { type: 'PUT', kv: kv(A, 'a2', r0 + 1, r0 + 2), prevKv: kv(A, 'a1', r0 + 1, r0 + 1), created: false },
      ]);
      w.watch.stop();
    });

    it('waits for a revision not written yet', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const w = record(s, { prefix: PODS, afterRevision: r0 + 2 });
      await s.create(A, bytes('a1'));
      await s.create(B, bytes('b1'));
      await s.update(A, bytes('a2'), r0 + 1);
      expect(await w.next(1)).toEqual([
        { type: 'PUT', kv: kv(A, 'a2', r0 + 1, r0 + 3), prevKv: kv(A, 'a1', r0 + 1, r0 + 1), created: false },
      ]);
      w.watch.stop();
    });

    it('delivers only keys under its prefix', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const w = record(s, { prefix: PODS, afterRevision: r0 });
      const ns = record(s, { prefix: '/registry/pods/ns1/', afterRevision: r0 });
      await s.create('/registry/podsx/ns/a', bytes('x'));
      await s.create('/registry/pods/ns1/a', bytes('1'));
      await s.create('/registry/pods', bytes('x'));
      await s.create('/registry/pods/ns10/a', bytes('10'));
      await s.create('/registry/pod/ns/a', bytes('x'));
      await s.create(A, bytes('a'));
      expect((await w.next(3)).map((e) => e.kv.key)).toEqual(['/registry/pods/ns1/a', '/registry/pods/ns10/a', A]);
      await s.create('/registry/pods/ns1/b', bytes('1'));
      expect((await ns.next(2)).map((e) => [e.kv.key, e.kv.modRevision])).toEqual([
        ['/registry/pods/ns1/a', r0 + 2],
        ['/registry/pods/ns1/b', r0 + 7],
      ]);
      expect((await w.next(4)).map((e) => e.kv.key)[3]).toBe('/registry/pods/ns1/b');
      w.watch.stop();
      ns.watch.stop();
    });

    it('stops delivering after stop(), without onError', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const stopped = record(s, { prefix: PODS, afterRevision: r0 });
      const control = record(s, { prefix: PODS, afterRevision: r0 });
      await s.create(A, bytes('a1'));
      expect((await stopped.next(1))[0].kv.key).toBe(A);
      stopped.watch.stop();
      await s.create(B, bytes('b1'));
      expect((await control.next(2)).map((e) => e.kv.key)).toEqual([A, B]);
      expect(stopped.events.map(viewEvent).map((e) => e.kv.key)).toEqual([A]);
      expect(stopped.errors).toEqual([]);
      stopped.watch.stop();
      control.watch.stop();
    });

    it('ends a watch whose onEvent throws, passing what it threw to onError', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const boom = new Error('handler failed');
      let calls = 0;
      const failing = record(s, { prefix: PODS, afterRevision: r0 }, () => {
        calls += 1;
        throw boom;
      });
      const control = record(s, { prefix: PODS, afterRevision: r0 });
      await s.create(A, bytes('a1'));
      await s.create(B, bytes('b1'));
      expect(await failing.failure()).toBe(boom);
      await control.next(2);
      expect([calls, failing.events.length, failing.errors.length]).toEqual([1, 0, 1]);
      control.watch.stop();
    });

    it('ends running watches with onError (Unreachable) when the backend closes', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const w = record(s, { prefix: PODS, afterRevision: r0 });
      await s.create(A, bytes('a1'));
      await w.next(1);
      await s.close();
      const err = await w.failure();
      expect(isStorageError(err, 'Unreachable')).toBe(true);
      expect(w.errors.length).toBe(1);
    });
  });
}
