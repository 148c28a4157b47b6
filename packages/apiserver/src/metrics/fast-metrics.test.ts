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

  it('a tallied Counter of several labels, or none, reads like a prom-client Counter', async () => {
    const [theirs, ours] = [new Registry(), new Registry()];
    const labelNames = ['name', 'type', 'decision'];
    const reference = new Counter({ name: 'd_total', help: 'Decisions.', labelNames, registers: [theirs] });
    const tallied = talliedCounter({ name: 'd_total', help: 'Decisions.', labelNames, registers: [ours] });
    const plain = new Counter({ name: 'e_total', help: 'Events.', registers: [theirs] });
    const plainTallied = talliedCounter({ name: 'e_total', help: 'Events.', registers: [ours] });
    const bound = tallied.bind('RBAC', 'rbac', 'allowed');
    // Values that a joined key would confuse ("a" + "b c" and "a b" + "c") stay apart.
    for (const [name, type, decision] of [['RBAC', 'rbac', 'allowed'], ['a', 'b\u0000c', 'x'], ['a\u0000b', 'c', 'x'], ['Node', 'node', 'denied'], ['RBAC', 'rbac', 'allowed']]) {
      reference.inc({ name, type, decision });
      if (name === 'RBAC') bound();
      else tallied.add(name, type, decision);
      plain.inc();
      plainTallied.add();
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
