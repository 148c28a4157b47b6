/** One priority level in the concurrency allocation problem (kube's allocProblemItem). */
export interface AllocationItem {
  target: number;
  lowerBound: number;
  upperBound: number;
}

/** Targets below this count as this (kube's MinTarget), so no level's share is zero. */
const MIN_TARGET = 0.001;

/**
 * Shares `total` seats between levels in proportion to their targets, within each level's bounds (kube's
 * computeConcurrencyAllocation): the allocations are clamp(p × target, lower, upper) for the one proportion p at
 * which they sum to `total`. The sum is monotone in p and linear between the points where some level meets a
 * bound, so p is found on the segment where the sum crosses `total`. When even the lower bounds exceed `total`,
 * every level gets its lower bound; when the upper bounds do not reach it, its upper bound.
 */
export function allocateConcurrency(total: number, items: readonly AllocationItem[]): number[] {
  const targets = items.map((i) => Math.max(i.target, MIN_TARGET));
  const sumAt = (p: number) => items.reduce((sum, item, i) => sum + clamp(p * targets[i], item.lowerBound, item.upperBound), 0);
  const lowSum = items.reduce((sum, i) => sum + i.lowerBound, 0);
  const highSum = items.reduce((sum, i) => sum + i.upperBound, 0);
  if (lowSum >= total) return items.map((i) => i.lowerBound);
  if (highSum <= total) return items.map((i) => i.upperBound);
  // Where some level starts or stops following its target.
  const points = [...new Set(items.flatMap((item, i) => [item.lowerBound / targets[i], item.upperBound / targets[i]]))].sort((a, b) => a - b);
  let p = points[points.length - 1];
  let below = 0;
  for (const point of points) {
    const sum = sumAt(point);
    if (sum >= total) {
      // Linear between the last point below and this one.
      const low = sumAt(below);
      p = sum === low ? point : below + ((total - low) * (point - below)) / (sum - low);
      break;
    }
    below = point;
  }
  return items.map((item, i) => clamp(p * targets[i], item.lowerBound, item.upperBound));
}

const clamp = (x: number, low: number, high: number) => Math.max(low, Math.min(high, x));
