import { describe, expect, it } from 'vitest';
import { createInFlightLimiter } from './inflight.js';
import { parseGoDuration, requestDeadline } from './timeout.js';

describe('request deadline', () => {
  it('reads Go durations', () => {
    expect(parseGoDuration('1m0s')).toBe(60_000);
    expect(parseGoDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseGoDuration('250ms')).toBe(250);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('10')).toBeUndefined();
    expect(parseGoDuration('')).toBeUndefined();
  });

  it("shortens the server's timeout with the client's ?timeout=, never lengthens it", () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(requestDeadline(q(''), 60_000)).toBe(60_000);
    expect(requestDeadline(q('timeout=5s'), 60_000)).toBe(5_000);
    expect(requestDeadline(q('timeout=5m'), 60_000)).toBe(60_000);
    expect(requestDeadline(q('timeout=0s'), 60_000)).toBe(60_000);
    expect(() => requestDeadline(q('timeout=5'), 60_000)).toThrow('invalid timeout specified in the request URL - time: invalid duration "5"');
  });
});

describe('in-flight limiter', () => {
  it('counts read-only and mutating requests apart; 0 is no limit; a slot is freed once', () => {
    const limiter = createInFlightLimiter(1, 0);
    const release = limiter.acquire(false)!;
    expect(limiter.acquire(false)).toBeUndefined();
    expect(Array.from({ length: 5 }, () => limiter.acquire(true)).every(Boolean)).toBe(true);
    release();
    release();
    expect(limiter.inFlight).toEqual({ readOnly: 0, mutating: 5 });
    expect(limiter.acquire(false)).toBeDefined();
  });
});
