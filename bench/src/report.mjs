// Formatting of the results: one Markdown table (printed, and pasted into BENCHMARKS.md) and the JSON file.

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count or rate: thousands separated above 100, three significant digits below. */
export function num(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return '—';
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return int.format(n);
  return String(Number(n.toPrecision(3)));
}

export function ms(value) {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (value < 1) return `${value.toFixed(2)} ms`;
  if (value < 10) return `${value.toFixed(1)} ms`;
  if (value < 10_000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(1)} s`;
}

export function seconds(value) {
  return value === undefined || Number.isNaN(value) ? '—' : `${value < 10 ? value.toFixed(2) : value.toFixed(1)} s`;
}

export function mib(bytes) {
  if (bytes === undefined || Number.isNaN(bytes)) return '—';
  const m = bytes / 1024 ** 2;
  return `${m < 10 ? m.toFixed(1) : Math.round(m)} MiB`;
}

export function mbps(bytesPerSecond) {
  return bytesPerSecond === undefined || Number.isNaN(bytesPerSecond) ? '—' : `${num(bytesPerSecond / 1e6)} MB/s`;
}

/** `value` as a ratio to a baseline: "0.42× B1"; "—" when either side is missing. */
export function ratio(value, base, label) {
  if (!Number.isFinite(value) || !Number.isFinite(base) || base === 0) return '—';
  const r = value / base;
  return `${r >= 10 ? r.toFixed(0) : r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}× ${label}`;
}

/** A target cell: its text and ✓ or ✗ (or nothing when it could not be judged). */
export function target(text, met) {
  return met === undefined ? text : `${text} ${met ? '✓' : '✗'}`;
}

export const COLUMNS = [
  ['id', '#'],
  ['scenario', 'scenario'],
  ['backend', 'backend'],
  ['throughput', 'throughput'],
  ['p50', 'p50'],
  ['p99', 'p99'],
  ['cpu', 'server CPU s/1k ops'],
  ['rss', 'peak RSS'],
  ['ratio', 'vs baseline'],
  ['target', 'target'],
  ['notes', 'notes'],
];

/** One Markdown table of the rows, every cell escaped for pipes. */
export function markdownTable(rows, columns = COLUMNS) {
  const cell = (v) => (v === undefined || v === null || v === '' ? '' : String(v).replaceAll('|', '\\|').replaceAll('\n', ' '));
  const lines = [`| ${columns.map(([, title]) => title).join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${columns.map(([key]) => cell(row[key])).join(' | ')} |`);
  return lines.join('\n');
}
