import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../src/index.js';

describe('WorkQueue', () => {
  it('queues an item once however often it is added, in order of first add', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.length).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
  });

  it('never hands one item to two workers: an add while it is processed queues it again after done', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    expect(q.length).toBe(0);
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await new Promise((r) => setTimeout(r, 5));
    expect(second).toBeUndefined();
    q.done(key!);
    await new Promise((r) => setTimeout(r, 0));
    expect(second).toBe('a');
  });

  it('backs a failing item off exponentially until forgotten', async () => {
    const q = new WorkQueue({ baseDelayMs: 20 });
    q.add('x');
    await q.get();
    q.done('x');
    q.addRateLimited('x');
    q.addRateLimited('x');
    q.addRateLimited('x');
    expect(q.numRequeues('x')).toBe(3);
    expect(q.length).toBe(0); // waits 20, 40 then 80 ms: not yet there
    expect(await q.get()).toBe('x');
    q.forget('x');
    expect(q.numRequeues('x')).toBe(0);
  });

  it('limits retries overall to qps after a burst', () => {
    const q = new WorkQueue({ baseDelayMs: 0, qps: 10, burst: 2 });
    const delays: number[] = [];
    // The private delay is observed through the timers it sets: count items not yet queued.
    for (const k of ['a', 'b', 'c', 'd']) q.addRateLimited(k);
    delays.push(q.length);
    expect(delays[0]).toBe(2); // two tokens: a and b at once; c and d wait for tokens
    q.shutDown();
  });

  it('shuts down: waiting gets resolve undefined and later adds are dropped', async () => {
    const q = new WorkQueue();
    const waiting = q.get();
    q.addAfter('late', 10_000);
    q.shutDown();
    expect(await waiting).toBeUndefined();
    q.add('x');
    expect(await q.get()).toBeUndefined();
    expect(q.isShutDown).toBe(true);
  });
});
