import { describe, expect, it } from 'vitest';
import type { StorageBackend } from '../types.js';
import { bytes, expectStorageError, kv, record, view } from './helpers.js';

const A = '/registry/pods/ns/a';
const B = '/registry/pods/ns/b';
const C = '/registry/pods/ns/c';

/** r0+1 create A, +2 update A, +3 create B, +4 delete B, +5 create C, +6 update A. */
async function history(s: StorageBackend): Promise<number> {
  const r0 = await s.currentRevision();
  await s.create(A, bytes('a1'));
  await s.update(A, bytes('a2'), r0 + 1);
  await s.create(B, bytes('b1'));
  await s.delete(B);
  await s.create(C, bytes('c1'));
  await s.update(A, bytes('a3'), r0 + 2);
  return r0;
}

export function describeCompaction(backend: () => StorageBackend): void {
  describe('compaction', () => {
    it('fails reads below the compacted revision with Compacted and serves them at and after it', async () => {
      const s = backend();
      const r0 = await history(s);
      await s.compact(r0 + 5);
      expect(await s.compactedRevision()).toBe(r0 + 5);

      const err = await expectStorageError(s.get(A, { revision: r0 + 4 }), 'Compacted');
      expect([err.key, err.compactedRevision]).toEqual([A, r0 + 5]);
      expect((await expectStorageError(s.list({ prefix: '/registry/pods/', revision: r0 + 1 }), 'Compacted')).compactedRevision).toBe(r0 + 5);

      expect(view((await s.get(A, { revision: r0 + 5 })).kv)).toEqual(kv(A, 'a2', r0 + 1, r0 + 2));
      expect(await s.get(B, { revision: r0 + 5 })).toEqual({ revision: r0 + 5 });
      expect(view((await s.get(C, { revision: r0 + 5 })).kv)).toEqual(kv(C, 'c1', r0 + 5, r0 + 5));
      expect(view((await s.get(A)).kv)).toEqual(kv(A, 'a3', r0 + 1, r0 + 6));
      const atCompacted = await s.list({ prefix: '/registry/pods/', revision: r0 + 5 });
      expect([atCompacted.kvs.map((x) => view(x)), atCompacted.revision]).toEqual([
        [kv(A, 'a2', r0 + 1, r0 + 2), kv(C, 'c1', r0 + 5, r0 + 5)],
        r0 + 5,
      ]);
      expect((await s.list({ prefix: '/registry/pods/' })).kvs.map((x) => view(x))).toEqual([
        kv(A, 'a3', r0 + 1, r0 + 6),
        kv(C, 'c1', r0 + 5, r0 + 5),
      ]);
      expect(await s.count('/registry/pods/')).toBe(2);
    });

    it('fails watches that need compacted history and replays from the compacted revision on', async () => {
      const s = backend();
      const r0 = await history(s);
      await s.compact(r0 + 5);

      const failed = record(s, { prefix: '/registry/pods/', afterRevision: r0 + 3 });
      const err = await failed.failure();
      expect(err).toMatchObject({ code: 'Compacted', compactedRevision: r0 + 5 });
      expect(failed.events).toEqual([]);

      const w = record(s, { prefix: '/registry/pods/', afterRevision: r0 + 4 });
      expect(await w.next(2)).toEqual([
        { type: 'PUT', kv: kv(C, 'c1', r0 + 5, r0 + 5), created: true },
        { type: 'PUT', kv: kv(A, 'a3', r0 + 1, r0 + 6), prevKv: kv(A, 'a2', r0 + 1, r0 + 2), created: false },
      ]);
      w.watch.stop();
    });

    it('keeps working after compaction and ignores compacting again at or below the compacted revision', async () => {
      const s = backend();
      const r0 = await history(s);
      await s.compact(r0 + 6);
      await s.compact(r0 + 6);
      await s.compact(r0 + 3);
      expect(await s.compactedRevision()).toBe(r0 + 6);
      expect(view(await s.create(B, bytes('b2')))).toEqual(kv(B, 'b2', r0 + 7, r0 + 7));
      expect(view(await s.update(A, bytes('a4'), r0 + 6))).toEqual(kv(A, 'a4', r0 + 1, r0 + 8));
      expect(view((await s.get(A, { revision: r0 + 6 })).kv)).toEqual(kv(A, 'a3', r0 + 1, r0 + 6));
      expect((await s.list({ prefix: '/registry/pods/' })).kvs.map((x) => x.key)).toEqual([A, B, C]);
    });
  });

  describe('future revisions', () => {
    it('fail reads with TooLargeRevision carrying the current revision', async () => {
      const s = backend();
      const r0 = await history(s);
      const err = await expectStorageError(s.get(A, { revision: r0 + 7 }), 'TooLargeRevision');
      expect([err.key, err.currentRevision]).toEqual([A, r0 + 6]);
      const listErr = await expectStorageError(s.list({ prefix: '/registry/pods/', revision: r0 + 100 }), 'TooLargeRevision');
      expect(listErr.currentRevision).toBe(r0 + 6);
      expect((await s.get(A, { revision: r0 + 6 })).revision).toBe(r0 + 6);
      await expectStorageError(s.compact(r0 + 7), 'TooLargeRevision');
    });
  });
}
