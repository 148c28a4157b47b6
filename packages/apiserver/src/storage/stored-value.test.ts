import { createMemoryBackend } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { storedValue } from './stored-value.js';

const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('storedValue', () => {
  it('applies every one of many concurrent updates, each on the value the last one left (compare-and-swap, retried)', async () => {
    const storage = createMemoryBackend();
    const a = storedValue(storage, 'ranges/counter');
    const b = storedValue(storage, 'ranges/counter');
    expect(await a.get()).toBeUndefined();
    let calls = 0;
    const increment = (current: Uint8Array | undefined) => {
      calls++;
      return bytes(String(Number(text(current) ?? '0') + 1));
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).update(increment)));
    expect(text(await a.get())).toBe('20');
    // Some of them lost a race and ran again on the newer value.
    expect(calls).toBeGreaterThan(20);
    expect(text((await storage.get('/registry/ranges/counter')).kv?.value)).toBe('20');
  });

  it('writes nothing when the change returns undefined, and rejects with what the change throws', async () => {
    const storage = createMemoryBackend();
    const value = storedValue(storage, 'ranges/x');
    await value.update(() => bytes('one'));
    const revision = await storage.currentRevision();
    expect(text(await value.update(() => undefined))).toBe('one');
    expect(await storage.currentRevision()).toBe(revision);
    await expect(value.update(() => { throw new Error('range is full'); })).rejects.toThrow('range is full');
    expect(() => storedValue(storage, '/registry/x')).toThrow(/relative/);
  });
});
