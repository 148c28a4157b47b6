import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCompactor } from './compactor.js';
import { createMemoryBackend } from './memory/index.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('startCompactor', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('compacts each interval up to the revision current one interval earlier', async () => {
    const s = createMemoryBackend();
    const logged: string[] = [];
    const compactor = startCompactor(s, { intervalMs: 60_000, log: (m) => logged.push(m) });
    await s.create('/registry/pods/ns/a', bytes('1'));
    await s.update('/registry/pods/ns/a', bytes('2'), 1);

    await vi.advanceTimersByTimeAsync(60_000); // first tick: remembers revision 2
    expect(await s.compactedRevision()).toBe(1);
    await s.update('/registry/pods/ns/a', bytes('3'), 2);

    await vi.advanceTimersByTimeAsync(60_000); // compacts to 2, remembers 3
    expect(await s.compactedRevision()).toBe(2);
    await expect(s.get('/registry/pods/ns/a', { revision: 1 })).rejects.toMatchObject({ code: 'Compacted' });
    expect((await s.get('/registry/pods/ns/a', { revision: 2 })).kv?.modRevision).toBe(2);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(await s.compactedRevision()).toBe(3);
    expect(logged).toEqual(['compacted storage history up to revision 2', 'compacted storage history up to revision 3']);

    compactor.stop();
    await s.update('/registry/pods/ns/a', bytes('4'), 3);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(await s.compactedRevision()).toBe(3);
  });

  it('does nothing with an interval of 0', async () => {
    const s = createMemoryBackend();
    const compactor = startCompactor(s, { intervalMs: 0 });
    await s.create('/registry/pods/ns/a', bytes('1'));
    await s.update('/registry/pods/ns/a', bytes('2'), 1);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(await s.compactedRevision()).toBe(1);
    compactor.stop();
  });

  it('logs a failed round and tries again at the next tick', async () => {
    const s = createMemoryBackend();
    await s.create('/registry/pods/ns/a', bytes('1'));
    const logged: string[] = [];
    const compact = vi.spyOn(s, 'compact').mockRejectedValueOnce(new Error('storage unreachable'));
    const compactor = startCompactor(s, { intervalMs: 1000, log: (m) => logged.push(m) });
    await vi.advanceTimersByTimeAsync(1000);
    await s.update('/registry/pods/ns/a', bytes('2'), 1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(logged).toEqual(['storage compaction failed: storage unreachable']);
    await vi.advanceTimersByTimeAsync(1000); // retries revision 1 (a no-op now), remembers 2
    await vi.advanceTimersByTimeAsync(1000);
    expect(compact.mock.calls.map((c) => c[0])).toEqual([1, 1, 2]);
    expect(await s.compactedRevision()).toBe(2);
    compactor.stop();
  });
});
