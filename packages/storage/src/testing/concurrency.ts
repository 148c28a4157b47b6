import { describe, expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { DELETE, deleteWithPreconditions, guaranteedUpdate, type StorageCodec } from '../guaranteed-update.js';
import type { StorageBackend } from '../types.js';
import { bytes, expectStorageError, kv, record, text, view } from './helpers.js';

const COUNTER = '/registry/counters/ns/c';

interface Counter {
  n: number;
  rv: number;
}

const codec: StorageCodec<Counter> = {
  decode: (x) => ({ n: (JSON.parse(text(x.value)) as { n: number }).n, rv: x.modRevision }),
  encode: (c) => bytes(JSON.stringify({ n: c.n })),
};

export function describeConcurrency(backend: () => StorageBackend): void {
  describe('concurrent writers', () => {
    it('give 200 concurrent creates distinct consecutive revisions, each seen once and in order by a watcher', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const w = record(s, { prefix: '/registry/items/', afterRevision: r0 });
      const keys = Array.from({ length: 200 }, (_, i) => `/registry/items/ns/item-${String(i).padStart(3, '0')}`);
      const created = await Promise.all(keys.map((key) => s.create(key, bytes(key))));
      expect(created.map((x) => x.modRevision).sort((a, b) => a - b)).toEqual(keys.map((_, i) => r0 + 1 + i));
      expect(await s.currentRevision()).toBe(r0 + 200);
      const events = await w.next(200);
      expect(events.map((e) => e.kv.modRevision)).toEqual(keys.map((_, i) => r0 + 1 + i));
      const byKey = new Map(created.map((x) => [x.key, view(x)]));
      expect(events.every((e) => e.type === 'PUT' && e.created && !e.prevKv)).toBe(true);
      expect(events.map((e) => e.kv)).toEqual(events.map((e) => byKey.get(e.kv.key)));
      expect(new Set(events.map((e) => e.kv.key)).size).toBe(200);
      expect(await s.count('/registry/items/')).toBe(200);
      w.watch.stop();
    });

    it('let exactly one of concurrent creates or compare-and-swaps of one key win', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const creates = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => s.create(COUNTER, bytes(`${i}`))));
      expect(creates.filter((r) => r.status === 'fulfilled').length).toBe(1);
      expect(creates.every((r) => r.status === 'fulfilled' || isStorageError(r.reason, 'KeyExists'))).toBe(true);
      const updates = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => s.update(COUNTER, bytes(`u${i}`), r0 + 1)));
      expect(updates.filter((r) => r.status === 'fulfilled').map((r) => r.value.modRevision)).toEqual([r0 + 2]);
      expect(updates.every((r) => r.status === 'fulfilled' || isStorageError(r.reason, 'Conflict'))).toBe(true);
      expect(await s.currentRevision()).toBe(r0 + 2);
    });
  });

  describe('guaranteedUpdate', () => {
    it('lands every one of 20 concurrent increments by retrying on conflict', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(COUNTER, codec.encode({ n: 0, rv: 0 }));
      const results = await Promise.all(
        Array.from({ length: 20 }, () => guaranteedUpdate(s, COUNTER, codec, (c) => ({ n: c!.n + 1, rv: c!.rv }))),
      );
      const written = results.map((r) => ('obj' in r ? [r.obj.n, r.obj.rv, r.kv.modRevision, r.created] : r));
      expect(written.sort((a, b) => (a as number[])[0] - (b as number[])[0])).toEqual(
        Array.from({ length: 20 }, (_, i) => [i + 1, r0 + 2 + i, r0 + 2 + i, false]),
      );
      expect(view((await s.get(COUNTER)).kv)).toEqual(kv(COUNTER, '{"n":20}', r0 + 1, r0 + 21));
    });

    it('creates a missing key only with ignoreNotFound', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const err = await expectStorageError(guaranteedUpdate(s, COUNTER, codec, () => ({ n: 1, rv: 0 })), 'KeyNotFound');
      expect(err.key).toBe(COUNTER);
      let seen: unknown = 'not called';
      const r = await guaranteedUpdate(
        s,
        COUNTER,
        codec,
        (c, x) => {
          seen = [c, x];
          return { n: 1, rv: 0 };
        },
        { ignoreNotFound: true },
      );
      expect(seen).toEqual([undefined, undefined]);
      expect(r).toMatchObject({ obj: { n: 1, rv: r0 + 1 }, created: true });
      expect('kv' in r && view(r.kv)).toEqual(kv(COUNTER, '{"n":1}', r0 + 1, r0 + 1));
    });

    it('deletes when tryUpdate returns DELETE', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(COUNTER, codec.encode({ n: 7, rv: 0 }));
      const r = await guaranteedUpdate(s, COUNTER, codec, (c) => (c!.n === 7 ? DELETE : c!));
      expect('deleted' in r && view(r.deleted)).toEqual(kv(COUNTER, '{"n":7}', r0 + 1, r0 + 2));
      expect(await s.get(COUNTER)).toEqual({ revision: r0 + 2 });
    });

    it('propagates what tryUpdate throws unchanged and writes nothing', async () => {
      const s = backend();
      await s.create(COUNTER, codec.encode({ n: 1, rv: 0 }));
      const r = await s.currentRevision();
      const refusal = new Error('precondition failed');
      await expect(guaranteedUpdate(s, COUNTER, codec, async () => Promise.reject(refusal))).rejects.toBe(refusal);
      expect(await s.currentRevision()).toBe(r);
    });

    it('writes nothing when the new bytes equal the stored ones', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(COUNTER, codec.encode({ n: 1, rv: 0 }));
      const r = await guaranteedUpdate(s, COUNTER, codec, (c) => c!);
      expect(r).toMatchObject({ obj: { n: 1, rv: r0 + 1 }, created: false });
      expect(await s.currentRevision()).toBe(r0 + 1);
    });

    it('gives up with Conflict after maxRetries lost races', async () => {
      const s = backend();
      await s.create(COUNTER, codec.encode({ n: 0, rv: 0 }));
      let calls = 0;
      const err = await expectStorageError(
        guaranteedUpdate(
          s,
          COUNTER,
          codec,
          async (c) => {
            calls += 1;
            await s.update(COUNTER, codec.encode({ n: 100 + calls, rv: 0 }), c!.rv); // a rival wins every race
            return { n: c!.n + 1, rv: c!.rv };
          },
          { maxRetries: 2 },
        ),
        'Conflict',
      );
      expect([err.key, calls]).toEqual([COUNTER, 3]);
      expect(codec.decode((await s.get(COUNTER)).kv!).n).toBe(103);
    });
  });

  describe('deleteWithPreconditions', () => {
    it('deletes once the check passes, returning the object and the deleted kv', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(COUNTER, codec.encode({ n: 1, rv: 0 }));
      const r = await deleteWithPreconditions(s, COUNTER, codec, (c) => expect(c.n).toBe(1));
      expect({ obj: r.obj, deleted: view(r.deleted) }).toEqual({
        obj: { n: 1, rv: r0 + 1 },
        deleted: kv(COUNTER, '{"n":1}', r0 + 1, r0 + 2),
      });
      await expectStorageError(deleteWithPreconditions(s, COUNTER, codec, () => {}), 'KeyNotFound');
    });

    it('keeps the key when the check throws, propagating its error', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(COUNTER, codec.encode({ n: 1, rv: 0 }));
      const refusal = new Error('uid mismatch');
      await expect(deleteWithPreconditions(s, COUNTER, codec, () => { throw refusal; })).rejects.toBe(refusal);
      expect(view((await s.get(COUNTER)).kv)).toEqual(kv(COUNTER, '{"n":1}', r0 + 1, r0 + 1));
    });

    it('re-reads and re-checks when the key changed after the check', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(COUNTER, codec.encode({ n: 1, rv: 0 }));
      const checked: Counter[] = [];
      const r = await deleteWithPreconditions(s, COUNTER, codec, async (c) => {
        checked.push(c);
        if (checked.length === 1) await s.update(COUNTER, codec.encode({ n: 2, rv: 0 }), c.rv);
      });
      expect(checked).toEqual([{ n: 1, rv: r0 + 1 }, { n: 2, rv: r0 + 2 }]);
      expect(view(r.deleted)).toEqual(kv(COUNTER, '{"n":2}', r0 + 1, r0 + 3));
    });
  });
}
