/** kube's largest Retry-After of a rejected request, in seconds. */
const MAX_RETRY_AFTER = 32;

interface LevelStats {
  retryAfter: number;
  retryAfterUpdated: number;
  currentSecond: number;
  currentCount: number;
  history: { second: number; count: number }[];
}

/**
 * The `Retry-After` of requests a priority level turns away (kube's droppedRequestsTracker): 1 s while rejections
 * are rare; doubled (up to 32 s) when a level drops at least three times its Retry-After in requests within that
 * many seconds, at most once per Retry-After; one second less again while it drops fewer than that.
 */
export class RetryAfterTracker {
  private readonly levels = new Map<string, LevelStats>();

  constructor(private readonly now: () => number = Date.now) {}

  record(level: string): void {
    const second = Math.floor(this.now() / 1000);
    let stats = this.levels.get(level);
    if (!stats) {
      stats = { retryAfter: 1, retryAfterUpdated: 0, currentSecond: second, currentCount: 0, history: [] };
      this.levels.set(level, stats);
    }
    if (stats.currentSecond === second) {
      stats.currentCount++;
      return;
    }
    stats.history.push({ second: stats.currentSecond, count: stats.currentCount });
    const keep = Math.min(2 * stats.retryAfter, MAX_RETRY_AFTER);
    while (stats.history.length > 0 && stats.currentSecond - stats.history[0].second > keep) stats.history.shift();
    stats.currentSecond = second;
    stats.currentCount = 1;
    this.update(stats, second);
  }

  retryAfter(level: string): number {
    return this.levels.get(level)?.retryAfter ?? 1;
  }

  private update(stats: LevelStats, second: number): void {
    let dropped = 0;
    for (let i = stats.history.length - 1; i >= 0; i--) {
      const entry = stats.history[i];
      if (second - entry.second > stats.retryAfter) break;
      if (entry.second < second) dropped += entry.count;
    }
    if (second - stats.retryAfterUpdated >= stats.retryAfter && dropped >= 3 * stats.retryAfter) {
      stats.retryAfter = Math.min(stats.retryAfter * 2, MAX_RETRY_AFTER);
      stats.retryAfterUpdated = second;
    } else if (dropped < stats.retryAfter && stats.retryAfter > 1) {
      stats.retryAfter--;
    }
  }
}
