import { compareNames, type FlowConfig } from './config.js';

/** The paths of kube's debug dumps (k8s.io/apiserver apf_controller_debug.go). */
export const DUMP_PRIORITY_LEVELS_PATH = '/debug/api_priority_and_fairness/dump_priority_levels';
export const DUMP_QUEUES_PATH = '/debug/api_priority_and_fairness/dump_queues';
export const DUMP_REQUESTS_PATH = '/debug/api_priority_and_fairness/dump_requests';

const HEADERS = [
  'PriorityLevelName',
  'ActiveQueues',
  'IsIdle',
  'IsQuiescing',
  'WaitingRequests',
  'ExecutingRequests',
  'DispatchedRequests',
  'RejectedRequests',
  'TimedoutRequests',
  'CancelledRequests',
];

/**
 * kube's `dump_priority_levels`: a row per priority level, by name, its cells separated by commas and aligned as Go's
 * tabwriter aligns them there.
 */
export function dumpPriorityLevels(config: FlowConfig): string {
  const rows = [HEADERS];
  for (const level of levelsByName(config)) {
    const set = level.queueSet;
    const executing = set ? set.executingRequests : level.load.executing;
    const waiting = set ? set.waitingRequests : 0;
    const totals = set ? set.totals : { dispatched: level.load.dispatched, rejected: 0, timedOut: 0, cancelled: 0 };
    rows.push([
      level.name,
      String(set ? set.activeQueues : 0),
      String(executing === 0 && waiting === 0),
      'false',
      String(waiting),
      String(executing),
      String(totals.dispatched),
      String(totals.rejected),
      String(totals.timedOut),
      String(totals.cancelled),
    ]);
  }
  return table(rows);
}

const QUEUE_HEADERS = ['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum'];

/**
 * kube's `dump_queues`: a row per queue of every limited level (exempt levels and those that reject rather than
 * queue have none), with its virtual-time bookkeeping in seat-seconds.
 */
export function dumpQueues(config: FlowConfig): string {
  const rows = [QUEUE_HEADERS];
  for (const level of levelsByName(config)) {
    for (const q of level.queueSet?.dumpQueues() ?? []) {
      rows.push([level.name, String(q.index), String(q.pending), String(q.executing), String(q.seatsInUse), seatSeconds(q.nextDispatchR), String(q.initialSeatsSum), String(q.maxSeatsSum), seatSeconds(q.totalWorkSum)]);
    }
  }
  return table(rows);
}

const REQUEST_HEADERS = ['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency'];
const DETAIL_HEADERS = ['UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource'];

/** kube's `dump_requests`: a row per waiting request; `?includeRequestDetails=1` adds who asked for what. */
export function dumpRequests(config: FlowConfig, details: boolean): string {
  const rows = [details ? [...REQUEST_HEADERS, ...DETAIL_HEADERS] : REQUEST_HEADERS];
  for (const level of levelsByName(config)) {
    for (const q of level.queueSet?.dumpQueues() ?? []) {
      q.requests.forEach((r, i) => {
        const d = r.digest;
        const row = [level.name, d?.flowSchema ?? '', String(q.index), String(i), d?.distinguisher ?? '', rfc3339Nano(r.arrivedAt), String(r.initialSeats), String(r.finalSeats), goDuration(r.additionalLatencyMs)];
        if (details) row.push(d?.user ?? '', d?.verb ?? '', d?.path ?? '', d?.namespace ?? '', d?.name ?? '', d?.apiVersion ?? '', d?.resource ?? '', d?.subresource ?? '');
        rows.push(row);
      });
    }
  }
  return table(rows);
}

const levelsByName = (config: FlowConfig) => [...config.levels.values()].sort((a, b) => compareNames(a.name, b.name));

/**
 * Rows as Go's tabwriter (minimum width 8, padding 1) writes kube's comma-and-tab separated cells: each cell but a
 * row's last padded to its column's widest plus one space, at least 8.
 */
function table(rows: string[][]): string {
  const cells = rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? `${cell},` : cell)));
  const columns = Math.max(...cells.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(8, ...cells.filter((row) => i < row.length - 1).map((row) => row[i].length + 1)));
  return cells.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]) : cell)).join('') + '\n').join('');
}

/** kube's SeatSeconds.String(): whole seat-seconds, then eight decimals, then "ss". */
export function seatSeconds(value: number): string {
  const n = Math.max(0, Math.round(value * 1e8));
  return `${Math.floor(n / 1e8)}.${String(n % 1e8).padStart(8, '0')}ss`;
}

/** Go's time.RFC3339Nano in UTC (trailing zeros of the fraction dropped). */
function rfc3339Nano(ms: number): string {
  const [base, fraction] = new Date(ms).toISOString().slice(0, -1).split('.');
  const digits = fraction.replace(/0+$/, '');
  return digits ? `${base}.${digits}Z` : `${base}Z`;
}

/** Go's time.Duration.String() for a duration in milliseconds: "0s", "500µs", "6.5ms", "1.5s". */
export function goDuration(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const trim = (v: number, unit: string) => `${v.toFixed(9).replace(/\.?0+$/, '')}${unit}`;
  if (ns < 1e3) return `${ns}ns`;
  if (ns < 1e6) return trim(ns / 1e3, 'µs');
  if (ns < 1e9) return trim(ns / 1e6, 'ms');
  return trim(ns / 1e9, 's');
}
