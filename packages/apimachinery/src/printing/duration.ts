// kube's ages in Table cells: k8s.io/apimachinery/pkg/util/duration.HumanDuration and the printers'
// translateTimestampSince ("<unknown>" for an unset time).
import { parseRFC3339 } from '../wire/go-time.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24;

/** HumanDuration of `ms` milliseconds: `45s`, `3m12s`, `15m`, `5h4m`, `20h`, `3d4h`, `100d`, `2y30d`, `9y`. */
export function humanDuration(ms: number): string {
  // a deviation of up to 2 seconds is "almost now": clocks of clients and servers differ
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < DAY * 8) {
    const h = hours % DAY;
    return h === 0 ? `${Math.trunc(hours / DAY)}d` : `${Math.trunc(hours / DAY)}d${h}h`;
  }
  if (hours < DAY * 365 * 2) return `${Math.trunc(hours / DAY)}d`;
  if (hours < DAY * 365 * 8) {
    const dy = Math.trunc(hours / DAY) % 365;
    const years = Math.trunc(hours / DAY / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / DAY / 365)}y`;
}

const GO_ZERO_TIME_SECONDS = -62135596800;

/** Milliseconds since the epoch of an RFC 3339 time; null for unset (empty, `null`, Go's zero time); throws if malformed. */
export function parseTimestamp(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '' || value === 'null') return null;
  const t = parseRFC3339(value);
  if (t.seconds === GO_ZERO_TIME_SECONDS && t.nanos === 0) return null;
  return t.seconds * 1000 + Math.trunc(t.nanos / 1e6);
}

/** The age of a timestamp at `now` (kube's translateTimestampSince): `<unknown>` when unset, `<invalid>` when malformed. */
export function ageSince(timestamp: unknown, now: number): string {
  if (timestamp !== null && timestamp !== undefined && typeof timestamp !== 'string') return '<invalid>';
  let ms: number | null;
  try {
    ms = parseTimestamp(timestamp);
  } catch {
    return '<invalid>';
  }
  return ms === null ? '<unknown>' : humanDuration(now - ms);
}

/** The Age cell of every printer: the object's age (kube's translateTimestampSince of creationTimestamp). */
export const age = (obj: { metadata?: { creationTimestamp?: unknown } }, now: number): string => ageSince(obj.metadata?.creationTimestamp, now);
