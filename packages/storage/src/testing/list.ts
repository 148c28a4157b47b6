import { describe, expect, it } from 'vitest';
import type { ListOptions, StorageBackend } from '../types.js';
import { bytes, kv, view, type KvView } from './helpers.js';

interface PageView {
  kvs: KvView[];
  revision: number;
  more: boolean;
  remaining: number;
}

async function page(s: StorageBackend, options: ListOptions): Promise<PageView> {
  const r = await s.list(options);
  return { kvs: r.kvs.map((x) => view(x)), revision: r.revision, more: r.more, remaining: r.remaining };
}

const keysOf = (p: PageView) => p.kvs.map((x) => x.key);
/** The startKey that continues after `key` (startKey is inclusive). */
const after = (key: string) => `${key}\u0000`;

export function describeList(backend: () => StorageBackend): void {
  describe('list', () => {
    it('returns the keys under a prefix in key order, isolated from look-alike prefixes', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      for (const key of [
        '/registry/pods/ns/b',
        '/registry/podsx/ns/a',
        '/registry/pods/ns/a',
        '/registry/pods',
        '/registry/pod/ns/a',
        '/registry/pods/ns1/a',
        '/registry/pods/ns10/a',
      ]) {
        await s.create(key, bytes(key));
      }
      expect(await page(s, { prefix: '/registry/pods/' })).toEqual({
        kvs: [
          kv('/registry/pods/ns/a', '/registry/pods/ns/a', r0 + 3, r0 + 3),
          kv('/registry/pods/ns/b', '/registry/pods/ns/b', r0 + 1, r0 + 1),
          kv('/registry/pods/ns1/a', '/registry/pods/ns1/a', r0 + 6, r0 + 6),
          kv('/registry/pods/ns10/a', '/registry/pods/ns10/a', r0 + 7, r0 + 7),
        ],
        revision: r0 + 7,
        more: false,
        remaining: 0,
      });
      expect(keysOf(await page(s, { prefix: '/registry/pods/ns1/' }))).toEqual(['/registry/pods/ns1/a']);
      expect(keysOf(await page(s, { prefix: '/registry/podsx/' }))).toEqual(['/registry/podsx/ns/a']);
      expect(await s.count('/registry/pods/')).toBe(4);
      expect(await s.count('/registry/pods/ns1/')).toBe(1);
      expect(await s.count('/registry/podsx/')).toBe(1);
      expect(await s.count('/registry/')).toBe(7);
      expect(await s.count('/registry/services/')).toBe(0);
    });

    it('pages with limit, more and remaining', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      for (const name of ['e', 'c', 'a', 'd', 'b']) await s.create(`/registry/pods/ns/${name}`, bytes(name));
      const p = (names: string[]) => names.map((n) => `/registry/pods/ns/${n}`);
      const first = await page(s, { prefix: '/registry/pods/', limit: 2 });
      expect(first).toEqual({
        kvs: [kv(p(['a'])[0], 'a', r0 + 3, r0 + 3), kv(p(['b'])[0], 'b', r0 + 5, r0 + 5)],
        revision: r0 + 5,
        more: true,
        remaining: 3,
      });
      const second = await page(s, { prefix: '/registry/pods/', limit: 2, startKey: after(first.kvs[1].key), revision: first.revision });
      expect([keysOf(second), second.more, second.remaining]).toEqual([p(['c', 'd']), true, 1]);
      const third = await page(s, { prefix: '/registry/pods/', limit: 2, startKey: after(second.kvs[1].key), revision: first.revision });
      expect([keysOf(third), third.more, third.remaining, third.revision]).toEqual([p(['e']), false, 0, r0 + 5]);
      for (const limit of [5, 10, 0, undefined]) {
        const all = await page(s, { prefix: '/registry/pods/', limit });
        expect([keysOf(all), all.more, all.remaining]).toEqual([p(['a', 'b', 'c', 'd', 'e']), false, 0]);
      }
      expect(keysOf(await page(s, { prefix: '/registry/pods/', startKey: '/registry/pods/ns/c' }))).toEqual(p(['c', 'd', 'e']));
      expect(keysOf(await page(s, { prefix: '/registry/pods/', startKey: '/registry/a' }))).toEqual(p(['a', 'b', 'c', 'd', 'e']));
      expect(await page(s, { prefix: '/registry/pods/', startKey: '/registry/pods/ns/f' })).toEqual({
        kvs: [],
        revision: r0 + 5,
        more: false,
        remaining: 0,
      });
    });

    it('continues at a fixed revision as one consistent snapshot while writes happen between pages', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      const k = (n: string) => `/registry/pods/ns/k${n}`;
      for (let i = 0; i < 10; i++) await s.create(k(String(i)), bytes(`v${i}`));
      const first = await page(s, { prefix: '/registry/pods/', limit: 4 });
      expect([keysOf(first), first.revision, first.more, first.remaining]).toEqual([
        [k('0'), k('1'), k('2'), k('3')],
        r0 + 10,
        true,
        6,
      ]);

      await s.update(k('5'), bytes('changed'), r0 + 6);
      await s.delete(k('6'));
      await s.create(k('45'), bytes('new'));
      await s.delete(k('1'));
      await s.create(k('99'), bytes('new'));

      const R = first.revision;
      expect(await page(s, { prefix: '/registry/pods/', limit: 4, startKey: after(k('3')), revision: R })).toEqual({
        kvs: [kv(k('4'), 'v4', r0 + 5, r0 + 5), kv(k('5'), 'v5', r0 + 6, r0 + 6), kv(k('6'), 'v6', r0 + 7, r0 + 7), kv(k('7'), 'v7', r0 + 8, r0 + 8)],
        revision: R,
        more: true,
        remaining: 2,
      });
      expect(await page(s, { prefix: '/registry/pods/', limit: 4, startKey: after(k('7')), revision: R })).toEqual({
        kvs: [kv(k('8'), 'v8', r0 + 9, r0 + 9), kv(k('9'), 'v9', r0 + 10, r0 + 10)],
        revision: R,
        more: false,
        remaining: 0,
      });
      const again = await page(s, { prefix: '/registry/pods/', limit: 4, revision: R });
      expect([keysOf(again), again.remaining]).toEqual([[k('0'), k('1'), k('2'), k('3')], 6]);

      const now = await page(s, { prefix: '/registry/pods/' });
      expect(now.revision).toBe(r0 + 15);
      expect(now.kvs.map((x) => [x.key.slice(-3), x.value])).toEqual([
        ['/k0', 'v0'], ['/k2', 'v2'], ['/k3', 'v3'], ['/k4', 'v4'], ['k45', 'new'],
        ['/k5', 'changed'], ['/k7', 'v7'], ['/k8', 'v8'], ['/k9', 'v9'], ['k99', 'new'],
      ]);
    });

    it('lists the state at a past revision', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create('/registry/pods/ns/a', bytes('a1'));
      await s.create('/registry/pods/ns/b', bytes('b1'));
      await s.update('/registry/pods/ns/a', bytes('a2'), r0 + 1);
      await s.delete('/registry/pods/ns/b');
      await s.create('/registry/pods/ns/c', bytes('c1'));
      expect(await page(s, { prefix: '/registry/pods/', revision: r0 + 2 })).toEqual({
        kvs: [kv('/registry/pods/ns/a', 'a1', r0 + 1, r0 + 1), kv('/registry/pods/ns/b', 'b1', r0 + 2, r0 + 2)],
        revision: r0 + 2,
        more: false,
        remaining: 0,
      });
      expect(await page(s, { prefix: '/registry/pods/', revision: r0 + 4 })).toEqual({
        kvs: [kv('/registry/pods/ns/a', 'a2', r0 + 1, r0 + 3)],
        revision: r0 + 4,
        more: false,
        remaining: 0,
      });
      expect(await page(s, { prefix: '/registry/pods/', revision: r0 + 2, limit: 1 })).toEqual({
        kvs: [kv('/registry/pods/ns/a', 'a1', r0 + 1, r0 + 1)],
        revision: r0 + 2,
        more: true,
        remaining: 1,
      });
    });
  });
}
