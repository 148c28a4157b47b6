import { describe, expect, it } from 'vitest';
import { formatDuration, formatMicroTime, formatTime, parseRFC3339 } from './go-time.js';

describe('Go time formats at the edges', () => {
  it('parses RFC 3339 as Go time.Parse(time.RFC3339) does', () => {
    expect(parseRFC3339('1969-12-31T23:59:59.5Z')).toEqual({ seconds: -1, nanos: 500000000 });
    // more than nine fractional digits are truncated; a comma is a decimal separator too
    expect(parseRFC3339('2008-01-01T01:01:01.1234567891Z')).toEqual({ seconds: 1199149261, nanos: 123456789 });
    expect(parseRFC3339('2008-01-01T01:01:01,5Z')).toEqual({ seconds: 1199149261, nanos: 500000000 });
    expect(parseRFC3339('0000-01-01T00:00:00Z')).toEqual({ seconds: -62167219200, nanos: 0 });
    expect(parseRFC3339('2008-01-02T01:01:01+24:00')).toEqual({ seconds: 1199149261, nanos: 0 });
    expect(() => parseRFC3339('2008-01-01T01:01:01+25:00')).toThrow(
      'parsing time "2008-01-01T01:01:01+25:00": time zone offset out of range',
    );
    expect(() => parseRFC3339('2008-01-01T01:01:60Z')).toThrow('field out of range');
  });

  it('formats times outside 0000..9999 as Go AppendFormat does', () => {
    expect(formatTime(-1)).toBe('1969-12-31T23:59:59Z');
    expect(formatTime(253402300800)).toBe('10000-01-01T00:00:00Z');
    expect(formatTime(-62167219200 - 365 * 86400)).toBe('-0001-01-01T00:00:00Z');
    expect(() => formatTime(1e15)).toThrow('time 1000000000000000s since the epoch is out of range');
  });

  it('formats MicroTime with truncated, normalized nanoseconds', () => {
    expect(formatMicroTime(0, 999)).toBe('1970-01-01T00:00:00.000000Z');
    expect(formatMicroTime(0, 1000000000)).toBe('1970-01-01T00:00:01.000000Z');
    expect(formatMicroTime(-1, 999999999)).toBe('1969-12-31T23:59:59.999999Z');
  });

  it('formats durations like time.Duration.String at unit boundaries', () => {
    const cases: [bigint, string][] = [
      [-1n, '-1ns'],
      [999n, '999ns'],
      [1000n, '1µs'],
      [999999n, '999.999µs'],
      [1000000n, '1ms'],
      [-500000000n, '-500ms'],
      [1000000000n, '1s'],
      [60000000000n, '1m0s'],
      [3600000000000n, '1h0m0s'],
      [3600000000001n, '1h0m0.000000001s'],
      [-9223372036854775808n, '-2562047h47m16.854775808s'],
    ];
    for (const [nanos, text] of cases) expect(formatDuration(nanos)).toBe(text);
  });
});
