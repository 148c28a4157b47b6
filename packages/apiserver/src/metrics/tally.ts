import type { Counter, CounterConfiguration } from 'prom-client';
import { promClient } from './prom-client.js';
import { KeyTrie, labelValues } from './key-trie.js';

/** A prom-client Counter with a fast path: `add` counts in plain numbers, handed to the counter when it is read. */
export type TalliedCounter<L extends string> = Counter<L> & {
  /** Adds 1 to the series of these label values (in the counter's label order). */
  add(...values: string[]): void;
  /** The series of these label values, bound: each call adds 1 without looking anything up. */
  bind(...values: string[]): () => void;
};

/**
 * A Counter whose hot-path increments are tallied by label values and given to prom-client in its `collect` (run on
 * every read of the counter, a scrape included), so a request pays a Map lookup per label instead of prom-client's
 * label hashing and checks. Label values must be bounded: each set is kept for the counter's life.
 */
export function talliedCounter<L extends string>(configuration: CounterConfiguration<L>): TalliedCounter<L> {
  const labelNames = configuration.labelNames ?? [];
  interface Entry {
    values: string[];
    n: number;
  }
  /** Every series counted, for collect. */
  const entries: Entry[] = [];
  /** The series by their label values. */
  const series = new KeyTrie<string | undefined, Entry>(labelNames.length);
  const counter = new promClient.Counter<L>({
    ...configuration,
    collect() {
      for (const entry of entries) {
        if (entry.n === 0) continue;
        const labels = Object.fromEntries(labelNames.map((name, i) => [name, entry.values[i]])) as Record<L, string>;
        this.inc(labels, entry.n);
        entry.n = 0;
      }
    },
  });
  // An entry is kept for the counter's life (collect zeroes it, never drops it), so a bound one stays valid.
  const entryOf = (given: string[]): Entry => {
    const values = labelValues(labelNames, given);
    let entry = series.get(values);
    if (!entry) {
      entry = { values, n: 0 };
      series.set(values, entry);
      entries.push(entry);
    }
    return entry;
  };
  const add = (...values: string[]) => void entryOf(values).n++;
  const bind = (...values: string[]) => {
    const entry = entryOf(values);
    return () => void entry.n++;
  };
  return Object.assign(counter, { add, bind });
}
