import { newBadRequest, newTimeout, type StatusError } from '@kapi/apimachinery';

/** kube-apiserver's default `--request-timeout`: one minute. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export const timedOut = (): StatusError => newTimeout('request did not complete within the allotted timeout');

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`30s`, `1m0s`, `250ms`, `0`) in milliseconds, or undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  const match = /^([+-]?)(.*)$/.exec(text)!;
  const body = match[2];
  if (body === '0') return 0;
  if (body === '') return undefined;
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  for (let at = 0; at < body.length; at = part.lastIndex) {
    part.lastIndex = at;
    const m = part.exec(body);
    if (!m) return undefined;
    total += Number(m[1]) * UNITS[m[2]];
  }
  return (match[1] === '-' ? -1 : 1) * total;
}

/**
 * The time a request may take: the server's `--request-timeout`, shortened by the request's own `?timeout=`
 * (client-go sends it) when that is positive and smaller, as kube's WithRequestDeadline does. A `timeout` that is
 * not a Go duration is 400.
 */
export function requestDeadline(query: URLSearchParams, maxMs: number): number {
  const value = query.get('timeout');
  if (!value) return maxMs;
  const asked = parseGoDuration(value);
  if (asked === undefined) {
    throw newBadRequest(`invalid timeout specified in the request URL - time: invalid duration ${JSON.stringify(value)}`);
  }
  return asked > 0 && asked < maxMs ? asked : maxMs;
}
