import { describe, expect, it } from 'vitest';
import { formatDuration, formatMicroTime, formatTime, parseDuration, parseRFC3339 } from './go-time.js';

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
