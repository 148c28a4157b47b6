import type { StorageBackend } from '@kapi/storage';

/**
 * Storage history bounded in bytes (kube leaves this to etcd's space quota): the bytes of every write are
 * counted, and when more than `budgetBytes` were written since the history was last cut, storage is compacted
 * up to the revision after which about half the budget was written. The periodic compactor still runs; this only
 * stops a flood of big updates from filling the disk (or SQLite's file) before its next round. What the cut
 * leaves behind answers 410 Expired (old watches, continue tokens and Exact reads), as after any compaction.
 */
export function storageHistoryBudget(
  storage: StorageBackend,
  budgetBytes: number,
  onCompact: (revision: number) => void,
  log: (message: string) => void,
): { record(revision: number, bytes: number): void } {
  if (!(budgetBytes > 0)) return { record() {} };
  // (revision, bytes written up to and including it), one sample per budget/64 bytes at most.
  const samples: [number, number][] = [];
  let written = 0;
  let cutAt = 0;
  let compacting = false;
  const step = budgetBytes / 64;
  return {
    record(revision, bytes) {
      written += bytes;
      const last = samples[samples.length - 1];
      if (!last || written - last[1] >= step) samples.push([revision, written]);
      else last[0] = revision;
      if (compacting || written - cutAt <= budgetBytes) return;
      // The newest sample with at least half the budget written after it.
      let i = samples.length - 1;
      while (i >= 0 && written - samples[i][1] < budgetBytes / 2) i--;
      if (i < 0) return;
      const [target, at] = samples[i];
      samples.splice(0, i + 1);
      cutAt = at;
      compacting = true;
      storage
        .compact(target)
        .then(() => {
          onCompact(target);
          log(`storage history over ${budgetBytes} bytes: compacted up to revision ${target}`);
        })
        .catch((err: Error) => log(`storage history compaction failed: ${err.message}`))
        .finally(() => {
          compacting = false;
        });
    },
  };
}
