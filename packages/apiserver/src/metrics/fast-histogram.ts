import type { Registry } from 'prom-client';
import { KeyTrie, labelValues } from './key-trie.js';

interface Series {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** One bound series: observes without looking its labels up again. */
export interface HistogramSeries {
  observe(value: number): void;
}

/**
 * A histogram for the request path, registered in a prom-client Registry (which writes the exposition). prom-client's
 * own Histogram hashes and checks its labels on every observation, a microsecond a request on a path that costs
 * tens; this one finds a series by its label values in a KeyTrie and the bucket by binary search. Its `get()`
 * returns what prom-client's Histogram returns (`_bucket` series with cumulative counts and `le`, `_sum`, `_count`),
 * so the registry formats it the same way. Label values must be bounded: each set is kept for the histogram's life.
 */
export class FastHistogram<L extends string = string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Every series, in the order they appeared (the exposition's). */
  private series: Series[] = [];
  /** The series by their label values. */
  private byValues: KeyTrie<string | undefined, Series>;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
    readonly labelNames: readonly L[],
    registry: Registry,
  ) {
    this.byValues = new KeyTrie(labelNames.length);
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of these label values (in `labelNames` order), bound: observing through it looks nothing up. */
  labels(...values: string[]): HistogramSeries {
    let series: Series | undefined;
    // The series appears with its first observation, as prom-client's do.
    return { observe: (value) => this.add((series ??= this.seriesOf(values)), value) };
  }

  /** Observes `value` in the series of these label values (in `labelNames` order). */
  record(value: number, ...values: string[]): void {
    this.add(this.seriesOf(values), value);
  }

  /** Observes `value` in the series of the label values given as an object (prom-client's call shape). */
  observe(labels: Partial<Record<L, string>>, value: number): void {
    this.add(this.seriesOf(this.labelNames.map((name) => labels[name] ?? '')), value);
  }

  private seriesOf(given: string[]): Series {
    const values = labelValues(this.labelNames, given);
    let series = this.byValues.get(values);
    if (!series) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]!]));
      series = { labels, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.byValues.set(values, series);
      this.series.push(series);
    }
    return series;
  }

  private add(series: Series, value: number): void {
    if (!Number.isFinite(value)) return;
    const buckets = this.buckets;
    let lo = 0;
    let hi = buckets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (value <= buckets[mid]) hi = mid;
      else lo = mid + 1;
    }
    series.counts[lo]++;
    series.sum += value;
    series.count++;
  }

  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const s of this.series) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i];
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series = [];
    this.byValues.clear();
  }
}
