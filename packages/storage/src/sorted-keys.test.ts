import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted-keys.js';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const lowerBound = (keys: string[], key: string) => {
  let i = 0;
  while (i < keys.length && keys[i] < key) i++;
  return i;
};

/** Every positional read of `keys` against the plain sorted array it stands for. */
function expectSame(keys: SortedKeys, plain: string[], probes: string[]) {
  expect(keys.length).toBe(plain.length);
  for (let i = -1; i <= plain.length; i++) expect(keys.at(i)).toBe(plain[i]);
  // Backwards and jumping too, not only one key after another.
  for (let i = plain.length - 1; i >= 0; i -= 7) expect(keys.at(i)).toBe(plain[i]);
  for (let i = 0; i < plain.length; i += 13) expect(keys.at(i)).toBe(plain[i]);
  for (const probe of probes) {
    expect(keys.lowerBound(probe)).toBe(lowerBound(plain, probe));
    expect(keys.has(probe)).toBe(plain.includes(probe));
  }
}

describe('SortedKeys', () => {
  it('reads like a sorted array through random inserts and deletes, splitting and dropping blocks', () => {
    for (const seed of [1, 2, 3, 4]) {
      const next = random(seed);
      const key = () => `/registry/configmaps/ns${Math.floor(next() * 3)}/k${Math.floor(next() * 400)}`;
      // Blocks of 4 (split at 8): a few hundred keys make many blocks, split and emptied again.
      const keys = new SortedKeys(4);
      const plain: string[] = [];
      for (let step = 0; step < 3_000; step++) {
        const k = key();
        // Mostly inserts at first, mostly deletes later: blocks fill, split, then empty and go.
        if (next() < (step < 1_500 ? 0.75 : 0.3)) {
          const i = lowerBound(plain, k);
          const added = plain[i] !== k;
          if (added) plain.splice(i, 0, k);
          expect(keys.insert(k)).toBe(added);
        } else {
          const i = plain.indexOf(k);
          if (i >= 0) plain.splice(i, 1);
          expect(keys.delete(k)).toBe(i >= 0);
        }
        if (step % 250 === 0) expectSame(keys, plain, [key(), key(), '', '/', '/registry/configmaps/ns9', '\uffff']);
      }
      expectSame(keys, plain, [key(), key(), key(), '', '\uffff']);
      // Emptied whole, it reads as empty and takes keys again.
      for (const k of [...plain]) expect(keys.delete(k)).toBe(true);
      expectSame(keys, [], ['', 'a']);
      expect(keys.insert('b')).toBe(true);
      expectSame(keys, ['b'], ['a', 'b', 'c']);
    }
  });

  it('starts from keys already sorted', () => {
    const plain = Array.from({ length: 1_000 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    const keys = SortedKeys.from(plain, 16);
    expectSame(keys, plain, ['k0000', 'k0500', 'k05001', 'k9', 'a']);
    keys.insert('k0500a');
    plain.splice(501, 0, 'k0500a');
    expectSame(keys, plain, ['k0500a', 'k0501']);
    expect(SortedKeys.from([]).length).toBe(0);
    expect(SortedKeys.from([]).at(0)).toBeUndefined();
  });
});
