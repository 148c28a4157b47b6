import { compareNames, type FlowConfig } from './config.js';

/** The path of kube's per-level debug dump (k8s.io/apiserver apf_controller_debug.go). */
export const DUMP_PRIORITY_LEVELS_PATH = '/debug/api_priority_and_fairness/dump_priority_levels';

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
 * tabwriter aligns them there (each cell but the last padded to its column's widest plus one space, at least 8).
 */
export function dumpPriorityLevels(config: FlowConfig): string {
  const rows = [HEADERS];
  for (const level of [...config.levels.values()].sort((a, b) => compareNames(a.name, b.name))) {
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
  const cells = rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? `${cell},` : cell)));
  const widths = HEADERS.map((_, i) => Math.max(8, ...cells.map((row) => row[i].length + 1)));
  return cells.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]) : cell)).join('') + '\n').join('');
}
