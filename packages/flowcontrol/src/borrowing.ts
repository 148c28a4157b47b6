import { allocateConcurrency, type AllocationItem } from './allocation.js';
import type { FlowConfig, PriorityLevel } from './config.js';

/** kube's borrowingAdjustmentPeriod: how often levels' limits follow their demand. */
export const BORROWING_PERIOD_MS = 10_000;
/** kube's seatDemandSmoothingCoefficient. */
const SMOOTHING = 0.977;

/**
 * Borrowing between priority levels (kube's updateBorrowing): at the end of each period every level's seat demand
 * (seats running plus waiting) is summed up: its high watermark, and a smoothed envelope (average + standard
 * deviation, decaying slowly). Exempt levels keep what they used; the limited levels share the rest of the nominal
 * seats in proportion to their smoothed demand, each between what it may not lend (nominal − lendable; more if it
 * used more, up to nominal) and what it may borrow up to (nominal + borrowable). An idle level lends its lendable
 * seats; a busy one gets them. Returns each limited level's new limit.
 */
export function adjustBorrowing(config: FlowConfig): Map<string, number> {
  const limited: { level: PriorityLevel; minCurrent: number }[] = [];
  const items: AllocationItem[] = [];
  let remaining = config.nominalSum;
  let minSum = 0;
  let minCurrentSum = 0;
  for (const level of config.levels.values()) {
    const demand = (level.queueSet?.demand ?? level.load.demand).reset();
    const highWatermark = Math.round(demand.max);
    if (demand.duration > 0) {
      const envelope = demand.average + demand.deviation;
      level.load.smoothed = Math.max(envelope, SMOOTHING * level.load.smoothed + (1 - SMOOTHING) * envelope);
    }
    if (level.exempt) {
      remaining -= Math.max(level.minLimit, highWatermark);
      continue;
    }
    const minCurrent = Math.max(level.minLimit, Math.min(level.nominalLimit, highWatermark));
    limited.push({ level, minCurrent });
    items.push({ lowerBound: minCurrent, upperBound: level.maxLimit, target: Math.max(minCurrent, level.load.smoothed) });
    minSum += level.minLimit;
    minCurrentSum += minCurrent;
  }
  const limits = new Map<string, number>();
  if (remaining <= minSum) {
    for (const { level } of limited) limits.set(level.name, level.minLimit);
  } else if (remaining <= minCurrentSum) {
    // Not enough for what each used: the share above its minimum is cut by the same fraction for all.
    const share = (remaining - minSum) / (minCurrentSum - minSum);
    for (const { level, minCurrent } of limited) limits.set(level.name, level.minLimit + Math.round((minCurrent - level.minLimit) * share));
  } else {
    const allocs = allocateConcurrency(config.nominalSum, items);
    limited.forEach(({ level }, i) => limits.set(level.name, Math.round(allocs[i])));
  }
  for (const { level } of limited) level.queueSet!.setLimit(limits.get(level.name)!);
  return limits;
}
