import { describe, expect, it } from 'vitest';
import { RetryAfterTracker } from './retry-after.js';

describe("Retry-After of rejected requests (kube's droppedRequestsTracker)", () => {
  it('starts at 1 s, doubles under sustained drops up to 32 s, and comes back down when they stop', () => {
    let now = 1_000_000;
    const tracker = new RetryAfterTracker(() => now);
    expect(tracker.retryAfter('pl')).toBe(1);
    const seen: number[] = [];
    for (let second = 0; second < 80; second++) {
      for (let i = 0; i < 200; i++) tracker.record('pl');
      seen.push(tracker.retryAfter('pl'));
      now += 1000;
    }
    expect(seen[0]).toBe(1);
    expect(Math.max(...seen)).toBe(32);
    expect(seen).toContain(2);
    expect(seen).toContain(16);
    // Other levels are not affected.
    expect(tracker.retryAfter('other')).toBe(1);
    // Quiet seconds with a single drop each: it decreases one second at a time.
    const before = tracker.retryAfter('pl');
    for (let i = 0; i < 10; i++) {
      now += 40_000;
      tracker.record('pl');
    }
    expect(tracker.retryAfter('pl')).toBeLessThan(before);
  });
});
