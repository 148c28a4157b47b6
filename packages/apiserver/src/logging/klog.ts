import type { LogFields } from './types.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A value as klog's text format writes it: strings and errors quoted (Go's %q), numbers and booleans bare, others as JSON. */
function klogValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined || value === null) return '<nil>';
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(String(value));
  }
}

/**
 * One line in klog's text format, as kube-apiserver writes it by default:
 * `I1124 12:00:00.000000   1234 httplog:0] "HTTP" verb="GET" resp=200`. The header is severity (I, or E for lines
 * with `err`), month and day, UTC time to the microsecond, the process ID right-aligned in 7 columns, and the
 * writer (`logger`, or `apiserver`; JavaScript has no cheap caller line, so the line number is 0). Then the
 * message, quoted, and each field as key=value, `err` first as klog's ErrorS puts it.
 */
export function formatKlog(message: string, fields: LogFields = {}, now = new Date(), pid = process.pid): string {
  const { err, logger, ...rest } = fields;
  const severity = err !== undefined ? 'E' : 'I';
  const micros = pad(now.getUTCMilliseconds(), 3) + '000';
  const header =
    `${severity}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())} ` +
    `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}.${micros} ` +
    `${String(pid).padStart(7)} ${logger ?? 'apiserver'}:0]`;
  let line = `${header} ${JSON.stringify(message)}`;
  if (err !== undefined) line += ` err=${klogValue(err)}`;
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) line += ` ${key}=${klogValue(value)}`;
  return line + '\n';
}
