// Go's time formats as kube's JSON uses them: metav1.Time (RFC 3339, seconds), metav1.MicroTime (six fractional
// digits) and metav1.Duration (time.Duration.String / time.ParseDuration).

import { goQuote } from '../errors/go-format.js';

/** Seconds and nanoseconds since the Unix epoch (the wire form of Time and MicroTime). */
export interface Timestamp {
  seconds: number;
  nanos: number;
}

/** Go's zero time (0001-01-01T00:00:00Z), which kube writes as JSON null and as an empty Protobuf message. */
export const ZERO_TIME_SECONDS = -62135596800;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Parses an RFC 3339 timestamp (any offset, optional fraction) to UTC seconds and nanoseconds; throws if malformed. */
export function parseRFC3339(text: string): Timestamp {
  const m = RFC3339.exec(text);
  if (!m) throw new Error(`parsing time ${goQuote(text)}: not an RFC 3339 timestamp`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw new Error(`parsing time ${goQuote(text)}: field out of range`);
  }
  let offset = 0;
  if (m[8] !== 'Z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const [oh, om] = [Number(m[8].slice(1, 3)), Number(m[8].slice(4, 6))];
    // Go's time.Parse allows offsets up to 24:60 ("some people do write offsets of 24 hours")
    if (oh > 24 || om > 60) throw new Error(`parsing time ${goQuote(text)}: time zone offset out of range`);
    offset = sign * (oh * 3600 + om * 60);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return { seconds: d.getTime() / 1000 - offset, nanos: m[7] ? Number(m[7].slice(0, 9).padEnd(9, '0')) : 0 };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

// Go's RFC 3339 layout up to the seconds, in UTC. Years beyond 0000..9999 are written as Go's AppendFormat does
// (`10000`, `-0001`); seconds beyond the JS Date range (±8.64e12) cannot be formatted and throw.
function formatSeconds(seconds: number): string {
  const d = new Date(seconds * 1000);
  if (!Number.isFinite(seconds) || Number.isNaN(d.getTime())) throw new Error(`time ${seconds}s since the epoch is out of range`);
  const year = d.getUTCFullYear();
  const y = year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  return `${y}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
}

/** metav1.Time's JSON form: `2008-01-01T01:01:01Z` (UTC, whole seconds). */
export function formatTime(seconds: number): string {
  return `${formatSeconds(seconds)}Z`;
}

/**
 * metav1.MicroTime's JSON form: `2008-01-01T01:01:01.000003Z` (UTC, six fractional digits). Like Go's
 * `time.Unix(seconds, nanos)`, nanoseconds outside 0..999999999 carry into the seconds; they are truncated to
 * microseconds first, as MicroTime's Protobuf Unmarshal does.
 */
export function formatMicroTime(seconds: number, nanos: number): string {
  const t = microTime(seconds, nanos);
  return `${formatSeconds(t.seconds)}.${pad(t.nanos / 1000, 6)}Z`;
}

/** A MicroTime read from the wire: nanoseconds truncated (toward zero) to microseconds, then normalized. */
export function microTime(seconds: number, nanos: number): Timestamp {
  const n = Math.trunc(nanos / 1000) * 1000;
  const carry = Math.floor(n / 1e9);
  return { seconds: seconds + carry, nanos: n - carry * 1e9 };
}

const NANOSECOND = 1n;
const MICROSECOND = 1000n * NANOSECOND;
const MILLISECOND = 1000n * MICROSECOND;
const SECOND = 1000n * MILLISECOND;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const UNITS: Record<string, bigint> = {
  ns: NANOSECOND,
  us: MICROSECOND,
  'µs': MICROSECOND, // U+00B5
  'μs': MICROSECOND, // U+03BC
  ms: MILLISECOND,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
};
const MAX_UINT63 = 1n << 63n;

// fraction digits of v / 10**prec, without trailing zeros (Go's fmtFrac)
function fraction(v: bigint, prec: number): { text: string; rest: bigint } {
  let text = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print ||= digit !== 0n;
    if (print) text = digit.toString() + text;
    v /= 10n;
  }
  return { text: print ? `.${text}` : '', rest: v };
}

/** Go's time.Duration.String(): `1h2m3s`, `1.5s`, `500ms`, `1µs`, `0s`. */
export function formatDuration(nanoseconds: bigint | number): string {
  const d = BigInt(nanoseconds);
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    if (u === 0n) return '0s';
    let prec: number;
    let unit: string;
    if (u < MICROSECOND) {
      prec = 0;
      unit = 'ns';
    } else if (u < MILLISECOND) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const f = fraction(u, prec);
    out = `${f.rest}${f.text}${unit}`;
  } else {
    const f = fraction(u, 9);
    u = f.rest;
    out = `${u % 60n}${f.text}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Go's time.ParseDuration (`300ms`, `-1.5h`, `2h45m`), to nanoseconds. Throws Go's error messages. */
export function parseDuration(text: string): bigint {
  const invalid = (): Error => new Error(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0] >= '0' && s[0] <= '9'))) throw invalid();
    const intMatch = /^[0-9]*/.exec(s)![0];
    let v = intMatch === '' ? 0n : BigInt(intMatch);
    if (v > MAX_UINT63) throw invalid();
    s = s.slice(intMatch.length);
    const pre = intMatch.length > 0;
    let post = false;
    let f = 0n;
    let scale = 1;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      const fracMatch = /^[0-9]*/.exec(s)![0];
      post = fracMatch.length > 0;
      let overflow = false;
      for (const ch of fracMatch) {
        if (overflow) continue;
        if (f > (MAX_UINT63 - 1n) / 10n) {
          overflow = true;
          continue;
        }
        f = f * 10n + BigInt(ch);
        scale *= 10;
      }
      s = s.slice(fracMatch.length);
    }
    if (!pre && !post) throw invalid();
    const unitMatch = /^[^.0-9]*/.exec(s)![0];
    if (unitMatch === '') throw new Error(`time: missing unit in duration ${goQuote(text)}`);
    s = s.slice(unitMatch.length);
    const unit = UNITS[unitMatch];
    if (unit === undefined) throw new Error(`time: unknown unit ${goQuote(unitMatch)} in duration ${goQuote(text)}`);
    if (v > MAX_UINT63 / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      // Go adds the fraction in float64 arithmetic; doing the same keeps results identical.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX_UINT63) throw invalid();
    }
    total += v;
    if (total > MAX_UINT63) throw invalid();
  }
  if (neg) return -total;
  if (total > MAX_UINT63 - 1n) throw invalid();
  return total;
}

// The canonical forms: UTC, whole seconds (Time) or six fractional digits (MicroTime), a four-digit year.
const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{6})?Z$/;

/** Whether `text` is already what canonicalTime would write for it: the canonical layout, every field in range. */
function isCanonical(text: string, kind: 'Time' | 'MicroTime'): boolean {
  const m = CANONICAL.exec(text);
  if (!m || (kind === 'MicroTime') !== (m[7] !== undefined)) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1];
  return month >= 1 && month <= 12 && day >= 1 && day <= days && Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A Time or MicroTime as kube writes it after decoding: any RFC 3339 form of the instant (another offset, a
 * fraction) becomes `2006-01-02T15:04:05Z` for Time (whole seconds, as Go's RFC 3339 layout writes it) and
 * `2006-01-02T15:04:05.000000Z` for MicroTime. Throws when the text is not an RFC 3339 timestamp.
 */
export function canonicalTime(text: string, kind: 'Time' | 'MicroTime'): string {
  // Nearly every timestamp read back is already in its canonical form (the server wrote it): it is its own answer.
  if (isCanonical(text, kind)) return text;
  const t = parseRFC3339(text);
  return kind === 'Time' ? formatTime(t.seconds) : formatMicroTime(t.seconds, t.nanos);
}

let lastSecond = Number.NaN;
let lastTimestamp = '';

/**
 * Now as an RFC 3339 timestamp with seconds precision, as metav1.Time serializes. A write stamps several (creation,
 * managed fields): the text is made once per second of the clock.
 */
export function nowTimestamp(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTimestamp = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return lastTimestamp;
}
