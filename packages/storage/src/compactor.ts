import type { StorageBackend } from './types.js';

export interface CompactorOptions {
  /** `--etcd-compaction-interval` in ms; 0 (or less) disables compaction. kube-apiserver's default is 5 minutes. */
  intervalMs: number;
  /** Told about each compaction and each failure (a failed round is retried at the next tick). */
  log?: (message: string) => void;
  /** Told after each compaction, with the oldest revision still readable (a watch cache forgets what came before). */
  onCompact?: (revision: number) => void;
}

export interface Compactor {
  /** Stops the timer; a round in progress finishes. Idempotent. */
  stop(): void;
}

/**
 * Compacts storage history periodically, as kube-apiserver's compactor does: every interval it compacts up to the
 * revision that was current at the previous tick, so at least one interval of history stays readable (watches
 * and reads at a resourceVersion from the last interval keep working; older ones get 410 Gone). Several servers
 * sharing one etcd each run one; compacting to a revision already compacted is a no-op, and each compacts only
 * to a revision at least one interval old, so history of one interval survives whoever compacts.
 */
export function startCompactor(storage: StorageBackend, options: CompactorOptions): Compactor {
  const log = options.log ?? (() => {});
  if (!(options.intervalMs > 0)) return { stop() {} };
  let previous = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = async () => {
    try {
      if (previous > 0) {
        await storage.compact(previous);
        options.onCompact?.(previous);
        log(`compacted storage history up to revision ${previous}`);
      }
      previous = await storage.currentRevision();
    } catch (err) {
      log(`storage compaction failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    schedule();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick(), options.intervalMs);
    // The compactor alone never keeps the process alive.
    timer.unref?.();
  };

  schedule();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
