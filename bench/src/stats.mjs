// Latency histograms with ~1% relative precision and constant memory, whatever the number of samples.
const MIN_MS = 0.001; // 1 µs
const GROWTH = 1.01;
const LOG_GROWTH = Math.log(GROWTH);
const BUCKETS = Math.ceil(Math.log(600_000 / MIN_MS) / LOG_GROWTH) + 1; // up to 10 min

export class Histogram {
  counts = new Float64Array(BUCKETS);
  count = 0;
  sum = 0;
  max = 0;

  /** Records one sample in milliseconds (negative values count as 0). */
  record(ms) {
    const v = ms > 0 ? ms : 0;
    const i = v <= MIN_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(v / MIN_MS) / LOG_GROWTH));
    this.counts[i]++;
    this.count++;
    this.sum += v;
    if (v > this.max) this.max = v;
  }

  /** The value at quantile q (0..1): the upper edge of the bucket holding it, capped at the maximum seen. */
  quantile(q) {
    if (this.count === 0) return NaN;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(this.max, i === 0 ? MIN_MS : MIN_MS * GROWTH ** i);
    }
    return this.max;
  }

  summary() {
    return {
      count: this.count,
      mean: this.count ? this.sum / this.count : NaN,
      p50: this.quantile(0.5),
      p90: this.quantile(0.9),
      p99: this.quantile(0.99),
      max: this.count ? this.max : NaN,
    };
  }
}

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
