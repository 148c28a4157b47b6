import { describe, expect, it, vi } from 'vitest';
import { canonicalTime, nowTimestamp, formatDuration, formatMicroTime, formatTime, parseDuration, parseRFC3339 } from './go-time.js';

describe('Go time formats', () => {
  it('parses and formats RFC 3339', () => {
    expect(parseRFC3339('2008-01-01T01:01:01Z')).toEqual({ seconds: 1199149261, nanos: 0 });
    expect(parseRFC3339('2008-01-01T02:01:01.5+01:00')).toEqual({ seconds: 1199149261, nanos: 500000000 });
    expect(parseRFC3339('0001-01-01T00:00:00Z')).toEqual({ seconds: -62135596800, nanos: 0 });
    expect(formatTime(1199149261)).toBe('2008-01-01T01:01:01Z');
    expect(formatTime(-62135596800)).toBe('0001-01-01T00:00:00Z');
    expect(formatMicroTime(1041382861, 3000)).toBe('2003-01-01T01:01:01.000003Z');
    expect(formatMicroTime(1041382861, 123456789)).toBe('2003-01-01T01:01:01.123456Z');
    expect(() => parseRFC3339('2008-02-30T00:00:00Z')).toThrow('field out of range');
    expect(() => parseRFC3339('2008-01-01 01:01:01Z')).toThrow('not an RFC 3339 timestamp');
  });

  it('formats durations like time.Duration.String', () => {
    const cases: [bigint, string][] = [
      [0n, '0s'],
      [1n, '1ns'],
      [1100n, '1.1µs'],
      [2200000n, '2.2ms'],
      [3300000000n, '3.3s'],
      [4n * 60n * 1000000000n + 5000000000n, '4m5s'],
      [3723000000000n, '1h2m3s'],
      [-1500000000n, '-1.5s'],
      [9223372036854775807n, '2562047h47m16.854775807s'],
    ];
    for (const [nanos, text] of cases) expect(formatDuration(nanos)).toBe(text);
  });

  it('parses durations like time.ParseDuration', () => {
    expect(parseDuration('1h2m3s')).toBe(3723000000000n);
    expect(parseDuration('1.5h')).toBe(5400000000000n);
    expect(parseDuration('-300ms')).toBe(-300000000n);
    expect(parseDuration('+.5s')).toBe(500000000n);
    expect(parseDuration('1µs1us1μs')).toBe(3000n);
    expect(parseDuration('0')).toBe(0n);
    expect(parseDuration('2562047h47m16.854775807s')).toBe(9223372036854775807n);
    expect(() => parseDuration('')).toThrow('time: invalid duration ""');
    expect(() => parseDuration('1')).toThrow('time: missing unit in duration "1"');
    expect(() => parseDuration('1x')).toThrow('time: unknown unit "x" in duration "1x"');
    expect(() => parseDuration('.s')).toThrow('time: invalid duration ".s"');
    expect(() => parseDuration('9999999999999h')).toThrow('time: invalid duration "9999999999999h"');
  });
});

describe('canonicalTime', () => {
  // What canonicalTime must equal: the timestamp parsed and written again.
  const slow = (text: string, kind: 'Time' | 'MicroTime') => {
    const t = parseRFC3339(text);
    return kind === 'Time' ? formatTime(t.seconds) : formatMicroTime(t.seconds, t.nanos);
  };

  it('gives what parsing and formatting give, for canonical texts and every other form', () => {
    const texts = [
      '2026-11-27T18:00:00Z', '2024-02-29T23:59:59Z', '2000-02-29T00:00:00Z', '0000-02-29T12:00:00Z', '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z', '2026-11-27T18:00:00.000000Z', '2026-11-27T18:00:00.123456Z', '2026-11-27T18:00:00.5Z',
      '2026-11-27T19:00:00+01:00', '2026-11-27T18:00:00.1234567Z', '2026-11-27T18:00:00,123456Z',
    ];
    for (const text of texts) for (const kind of ['Time', 'MicroTime'] as const) expect(canonicalTime(text, kind)).toBe(slow(text, kind));
  });

  it('refuses what is no timestamp, even in the canonical layout', () => {
    for (const text of ['2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-01T00:00:00Z', '2026-04-31T00:00:00Z', '2026-11-27T24:00:00Z', '2026-11-27T18:60:00Z', '2026-11-27T18:00:60Z', 'yesterday']) {
      expect(() => canonicalTime(text, 'Time'), text).toThrow();
    }
  });
});

describe('nowTimestamp', () => {
  it('is the clock, in whole seconds, as it moves', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T19:00:00.999Z') });
    try {
      expect(nowTimestamp()).toBe('2026-11-27T19:00:00Z');
      vi.setSystemTime(Date.parse('2026-11-27T19:00:01.001Z'));
      expect(nowTimestamp()).toBe('2026-11-27T19:00:01Z');
      vi.setSystemTime(Date.parse('2025-01-01T00:00:00Z'));
      expect(nowTimestamp()).toBe('2025-01-01T00:00:00Z');
    } finally {
      vi.useRealTimers();
    }
  });
});
