import { afterEach, describe, expect, it, vi } from 'vitest';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';
import { adjustBorrowing } from './borrowing.js';
import { buildConfig } from './config.js';
import { flowHash } from './dealer.js';

afterEach(() => vi.useRealTimers());

const bootstrap = () =>
  buildConfig([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS], [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS], 600);

describe('borrowing between priority levels', () => {
  it('starts each level halfway into what it may lend, with kube bounds', () => {
    const config = bootstrap();
    const globalDefault = config.levels.get('global-default')!;
    // nominal ceil(600 × 20 / 245) = 49; lendable round(49 × 50%) = 25; no borrowing limit: up to 49 + 600.
    expect([globalDefault.nominalLimit, globalDefault.minLimit, globalDefault.maxLimit]).toEqual([49, 24, 649]);
    expect(globalDefault.queueSet!.concurrencyLimit).toBe(37);
    expect(config.levels.get('leader-election')!.queueSet!.concurrencyLimit).toBe(25);
    expect(config.nominalSum).toBe([13, 74, 98, 25, 98, 245, 49].reduce((a, b) => a + b));
  });

  it('lends idle levels\' seats to a busy one, and gives them back when it calms down', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    const config = bootstrap();
    const busy = config.levels.get('global-default')!.queueSet!;
    // 300 requests of many users: 37 run, the rest wait.
    const tickets = Array.from({ length: 300 }, (_, i) => busy.admit({ hash: () => flowHash('global-default', `u${i % 40}`), seats: 1, waitLimitMs: 60_000, signal: () => new AbortController().signal }));
    expect(busy.executingSeats).toBe(37);
    vi.advanceTimersByTime(10_000);
    const limits = adjustBorrowing(config);
    expect(limits.get('global-default')).toBeGreaterThan(300);
    // Idle levels lent most of what they may (their target is their minimum, scaled like every target).
    expect(limits.get('workload-low')).toBeLessThan(40);
    expect(limits.get('workload-low')).toBeGreaterThanOrEqual(config.levels.get('workload-low')!.minLimit);
    expect(limits.get('catch-all')).toBeGreaterThanOrEqual(13);
    // With the new limit, everything waiting runs.
    expect(busy.executingSeats).toBe(300);
    const all = await Promise.all(tickets);
    for (const t of all) t.release();
    // A quiet period later (the smoothed demand decays slowly, as kube's does), the limit is on its way down.
    for (let i = 0; i < 200; i++) {
      vi.advanceTimersByTime(10_000);
      adjustBorrowing(config);
    }
    expect(busy.concurrencyLimit).toBeLessThan(100);
    expect(busy.concurrencyLimit).toBeGreaterThanOrEqual(24);
  });

  it('keeps exempt usage out of what the limited levels share', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const config = bootstrap();
    const exempt = config.levels.get('exempt')!;
    exempt.load.demand.set(500);
    vi.advanceTimersByTime(10_000);
    exempt.load.demand.set(0);
    const limits = adjustBorrowing(config);
    // 602 nominal seats, 500 used by exempt requests: less than the limited levels' minimums, so each gets its minimum.
    for (const [name, limit] of limits) expect(limit).toBe(config.levels.get(name)!.minLimit);
    expect(limits.get('global-default')).toBe(24);
  });
});
