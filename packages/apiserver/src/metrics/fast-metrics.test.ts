import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastHistogram } from './fast-histogram.js';
import { talliedCounter } from './tally.js';

// The request path's metric types must expose exactly what prom-client's own types expose for the same data.
describe('the fast metric types', () => {
  it('a FastHistogram writes what a prom-client Histogram writes', async () => {
    const [theirs, ours] = [new Registry(), new Registry()];
    const buckets = [0.005, 0.025, 0.1, 1, 10];
    const reference = new Histogram({ name: 'h_seconds', help: 'Help "text".', buckets, labelNames: ['verb', 'code'], registers: [theirs] });
    const fast = new FastHistogram('h_seconds', 'Help "text".', buckets, ['verb', 'code'], ours);
    const bound = fast.labels('LIST', '200');
    for (const [verb, code, value] of [['GET', '200', 0.001], ['GET', '200', 0.025], ['GET', '404', 3], ['LIST', '200', 0.2], ['LIST', '200', 99]] as const) {
      reference.observe({ verb, code }, value);
      if (verb === 'LIST') bound.observe(value);
      else fast.record(value, verb, code);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    fast.observe({ verb: 'GET', code: '200' }, 0.025);
    reference.observe({ verb: 'GET', code: '200' }, 0.025);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('a tallied Counter reads like a prom-client Counter, however it was counted', async () => {
    const [theirs, ours] = [new Registry(), new Registry()];
    const reference = new Counter({ name: 'c_total', help: 'Counts.', labelNames: ['result'], registers: [theirs] });
    const tallied = talliedCounter({ name: 'c_total', help: 'Counts.', labelNames: ['result'], registers: [ours] });
    for (const result of ['success', 'failure', 'success']) {
      reference.inc({ result });
      tallied.add(result);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    reference.inc({ result: 'error' }, 5);
    tallied.inc({ result: 'error' }, 5);
    tallied.add('success');
    reference.inc({ result: 'success' });
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
