import type { KeyValue } from '../types.js';
import type { KeyIndex } from './key-index.js';
import { entryKeyValue, type EventLog, type LogEntry } from './log.js';

/**
 * Reads as of a revision: the current index, corrected by walking back the history of the keys written after
 * that revision. The caller has checked `revision` against the compacted and current revisions.
 */
export function entryAt(index: KeyIndex, log: EventLog, key: string, revision: number): LogEntry | undefined {
  let e = index.head(key);
  while (e !== undefined && e.revision > revision) e = e.prevRevision === 0 ? undefined : log.at(e.prevRevision);
  return e?.value === undefined ? undefined : e;
}

export interface Page {
  kvs: KeyValue[];
  remaining: number;
}

/**
 * One page of the keys under `prefix` from `startKey` as of `revision`. Costs O(log n + limit) at the current
 * revision, plus O(k log k) for the k writes since `revision` otherwise.
 */
export function readPage(
  index: KeyIndex,
  log: EventLog,
  current: number,
  options: { prefix: string; startKey?: string; limit: number; revision: number },
): Page {
  const { prefix, startKey, limit, revision } = options;
  const [lo, hi] = index.range(prefix, startKey);
  const from = startKey !== undefined && startKey > prefix ? startKey : prefix;

  // Keys written after `revision` may differ from their current state: collect them, in key order.
  const changed = new Set<string>();
  if (revision < current) {
    log.forEachAfter(revision, (e) => {
      if (e.key >= from && e.key.startsWith(prefix)) changed.add(e.key);
    });
  }
  const changedKeys = [...changed].sort();

  const kvs: KeyValue[] = [];
  let i = lo;
  let j = 0;
  while (i < hi || j < changedKeys.length) {
    if (limit > 0 && kvs.length === limit) break;
    const now = i < hi ? index.keyAt(i) : undefined;
    const past = j < changedKeys.length ? changedKeys[j] : undefined;
    if (past === undefined || (now !== undefined && now < past)) {
      kvs.push(entryKeyValue(index.live(now as string) as LogEntry));
      i++;
      continue;
    }
    if (now === past) i++;
    j++;
    const e = entryAt(index, log, past, revision);
    if (e !== undefined) kvs.push(entryKeyValue(e));
  }

  // Every key still live after position i is counted; changed keys left are corrected to their state then.
  let remaining = hi - i;
  for (; j < changedKeys.length; j++) {
    const k = changedKeys[j];
    remaining += (entryAt(index, log, k, revision) ? 1 : 0) - (index.live(k) ? 1 : 0);
  }
  return { kvs, remaining };
}
