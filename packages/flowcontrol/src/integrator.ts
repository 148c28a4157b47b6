/** What an {@link Integrator} saw over a period: time-weighted average, standard deviation and maximum. */
export interface IntegratorResults {
  /** Milliseconds covered. */
  duration: number;
  average: number;
  deviation: number;
  max: number;
}

/**
 * A value over time (a level's seat demand: seats running plus seats waiting), integrated so a period can be
 * summed up as kube's fairqueuing Integrator does: `set` on every change, `reset` at the end of a period.
 */
export class Integrator {
  private value = 0;
  private since: number;
  private start: number;
  private sum = 0;
  private sumSquares = 0;
  private max = 0;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.since = this.start = now();
  }

  set(value: number): void {
    this.accumulate();
    this.value = value;
    if (value > this.max) this.max = value;
  }

  /** Sums up the period since the last reset and starts the next one (from the current value). */
  reset(): IntegratorResults {
    this.accumulate();
    const duration = this.since - this.start;
    const average = duration > 0 ? this.sum / duration : this.value;
    const variance = duration > 0 ? Math.max(0, this.sumSquares / duration - average * average) : 0;
    const results = { duration, average, deviation: Math.sqrt(variance), max: this.max };
    this.start = this.since;
    this.sum = this.sumSquares = 0;
    this.max = this.value;
    return results;
  }

  private accumulate(): void {
    const t = this.now();
    const dt = t - this.since;
    if (dt > 0) {
      this.sum += this.value * dt;
      this.sumSquares += this.value * this.value * dt;
    }
    this.since = t;
  }
}
