import { afterEach, describe, expect, it, vi } from 'vitest';
import { flowHash } from './dealer.js';
import { QueueSet, type Ticket } from './queue-set.js';

const request = (flow: string, seats = 1, waitLimitMs = 60_000, signal = new AbortController().signal) => ({
  hash: () => flowHash('fs', flow),
  seats,
  waitLimitMs,
  signal: () => signal,
});

/** Admits and records the order in which requests start running. */
function recorder(set: QueueSet) {
  const started: string[] = [];
  const running: Ticket[] = [];
  const outcomes: Promise<Ticket>[] = [];
  const admit = (flow: string, seats = 1) => {
    const ticket = Promise.resolve(set.admit(request(flow, seats))).then((t) => {
      if (!t.rejected) {
        started.push(flow);
        running.push(t);
      }
      return t;
    });
    outcomes.push(ticket);
    return ticket;
  };
  /** Ends the oldest running request and lets the next ones start. */
  const finishOne = async () => {
    running.shift()!.release();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, running, admit, finishOne, outcomes };
}

afterEach(() => vi.useRealTimers());

describe('QueueSet: one priority level', () => {
  it('runs requests at once while seats are free', () => {
    const set = new QueueSet({ concurrencyLimit: 2, queues: 8, handSize: 2, queueLengthLimit: 5 });
    const a = set.admit(request('a'));
    const b = set.admit(request('b'));
    expect(a).not.toBeInstanceOf(Promise);
    expect(b).not.toBeInstanceOf(Promise);
    expect(set.executingSeats).toBe(2);
    expect(set.admit(request('c'))).toBeInstanceOf(Promise);
    expect(set.waitingRequests).toBe(1);
  });

  it('shares seats fairly: a flood from one flow does not starve another', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queues: 64, handSize: 1, queueLengthLimit: 200 });
    const r = recorder(set);
    for (let i = 0; i < 100; i++) void r.admit('flood');
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 5; i++) void r.admit('victim');
    await new Promise((resolve) => setImmediate(resolve));
    while (r.started.filter((f) => f === 'victim').length < 5) await r.finishOne();
    // The victim's five requests ran alternately with the flood's: within the first dozen dispatches.
    expect(r.started.length).toBeLessThanOrEqual(12);
    expect(r.started.slice(0, 12).filter((f) => f === 'victim')).toHaveLength(5);
  });

  it('turns a request away when its queue is full (queue-full), and when a Reject level is busy (concurrency-limit)', async () => {
    const queued = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 2 });
    const r = recorder(queued);
    for (let i = 0; i < 4; i++) void r.admit('x');
    const outcomes = await Promise.all([r.outcomes[0], r.outcomes[3]]);
    expect(outcomes[0].rejected).toBeUndefined();
    expect(outcomes[1].rejected).toBe('queue-full');
    expect(queued.waitingRequests).toBe(2);

    const reject = new QueueSet({ concurrencyLimit: 1, queues: 0, handSize: 0, queueLengthLimit: 0 });
    expect((reject.admit(request('a')) as Ticket).rejected).toBeUndefined();
    expect((reject.admit(request('b')) as Ticket).rejected).toBe('concurrency-limit');
  });

  it('gives up on a request that waited its wait limit (time-out), and on one whose client left (cancelled)', async () => {
    vi.useFakeTimers();
    const set = new QueueSet({ concurrencyLimit: 1, queues: 4, handSize: 2, queueLengthLimit: 10 });
    const running = set.admit(request('a')) as Ticket;
    const waiting = set.admit(request('b', 1, 250));
    const client = new AbortController();
    const leaving = set.admit(request('c', 1, 60_000, client.signal));
    expect(set.waitingRequests).toBe(2);
    vi.advanceTimersByTime(300);
    expect((await waiting).rejected).toBe('time-out');
    client.abort();
    expect((await leaving).rejected).toBe('cancelled');
    expect(set.waitingRequests).toBe(0);
    running.release();
    expect(set.executingSeats).toBe(0);
  });

  it('lets a wide request wait until its seats are free, and counts each release once', async () => {
    const set = new QueueSet({ concurrencyLimit: 3, queues: 4, handSize: 2, queueLengthLimit: 10 });
    const one = set.admit(request('a')) as Ticket;
    const wide = set.admit(request('b', 3));
    expect(wide).toBeInstanceOf(Promise);
    one.release();
    one.release();
    const ticket = await wide;
    expect(ticket.rejected).toBeUndefined();
    expect(set.executingSeats).toBe(3);
    ticket.release();
    expect(set.executingSeats).toBe(0);
  });

  it('keeps its waiting requests across a new configuration', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queues: 4, handSize: 2, queueLengthLimit: 10 });
    const running = set.admit(request('a')) as Ticket;
    const waiting = set.admit(request('b'));
    set.configure({ concurrencyLimit: 2, queues: 16, handSize: 4, queueLengthLimit: 10 });
    expect((await waiting).rejected).toBeUndefined();
    expect(set.executingSeats).toBe(2);
    running.release();
  });

  it('makes only the queues it deals: a level of tens of millions of queues costs nothing until used', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queues: 50_000_000, handSize: 2, queueLengthLimit: 5 });
    const running = set.admit(request('a')) as Ticket;
    const waiting = [set.admit(request('b')), set.admit(request('c'))];
    expect(set.waitingRequests).toBe(2);
    running.release();
    const next = await Promise.race(waiting);
    expect(next.rejected).toBeUndefined();
    next.release();
    for (const t of await Promise.all(waiting)) t.release();
    expect(set.executingSeats).toBe(0);
  });

  it('with the same queues, only its limits change: more seats run more of what waits', async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queues: 4, handSize: 2, queueLengthLimit: 10 });
    set.admit(request('a'));
    const waiting = [set.admit(request('b')), set.admit(request('c'))];
    set.configure({ concurrencyLimit: 3, queues: 4, handSize: 2, queueLengthLimit: 10 });
    expect((await Promise.all(waiting)).map((t) => t.rejected)).toEqual([undefined, undefined]);
    expect(set.executingSeats).toBe(3);
  });

  it('keeps a write\'s final seats for its additional latency after it ends (the watch events it causes)', async () => {
    vi.useFakeTimers();
    const set = new QueueSet({ concurrencyLimit: 4, queues: 4, handSize: 2, queueLengthLimit: 10 });
    const write = set.admit({ ...request('w'), finalSeats: 3, additionalLatencyMs: 5 }) as Ticket;
    expect(set.executingSeats).toBe(3); // the wider of its initial and final seats, while it runs
    const second = set.admit(request('x', 2));
    expect(second).toBeInstanceOf(Promise);
    write.release();
    expect(set.executingRequests).toBe(0);
    expect(set.executingSeats).toBe(3); // still held: the events go out
    expect(set.waitingRequests).toBe(1);
    vi.advanceTimersByTime(5);
    expect((await second).rejected).toBeUndefined();
    expect(set.executingSeats).toBe(2);
  });

  it('shares seat-seconds, not dispatches: a flow of long requests runs fewer of them than a flow of short ones', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance', 'Date'] });
    const set = new QueueSet({ concurrencyLimit: 1, queues: 64, handSize: 1, queueLengthLimit: 1_000 });
    const ran = { slow: 0, fast: 0 };
    // Each flow keeps a backlog; a slow request holds the seat 100 ms, a fast one 10 ms.
    const submit = (flow: 'slow' | 'fast') => {
      void Promise.resolve(set.admit(request(flow))).then((ticket) => {
        ran[flow]++;
        setTimeout(() => ticket.release(), flow === 'slow' ? 100 : 10);
        submit(flow);
      });
    };
    for (let i = 0; i < 3; i++) {
      submit('slow');
      submit('fast');
    }
    for (let t = 0; t < 2_000; t += 5) await vi.advanceTimersByTimeAsync(5);
    // Equal seat-seconds: about ten fast requests for each slow one (start-time fair queuing by seats would run
    // as many of each).
    expect(ran.fast).toBeGreaterThan(5 * ran.slow);
    expect(ran.slow).toBeGreaterThan(2);
  });

  it('dumps its queues: pending and running requests, seats, and R in seat-seconds', () => {
    const set = new QueueSet({ concurrencyLimit: 1, queues: 2, handSize: 1, queueLengthLimit: 10 });
    set.admit(request('a'));
    set.admit({ ...request('a'), digest: () => ({ flowSchema: 'fs', distinguisher: 'a', user: 'alice', verb: 'create', path: '/api/v1/namespaces/ns/configmaps', namespace: 'ns', name: '', apiVersion: 'v1', resource: 'configmaps', subresource: '' }) });
    const queues = set.dumpQueues();
    expect(queues).toHaveLength(2);
    const used = queues.find((q) => q.executing === 1)!;
    expect(used).toMatchObject({ pending: 1, seatsInUse: 1, initialSeatsSum: 1, maxSeatsSum: 1, totalWorkSum: 3 });
    expect(used.requests[0].digest).toMatchObject({ user: 'alice', verb: 'create' });
    expect(queues.find((q) => q !== used)).toMatchObject({ pending: 0, executing: 0, seatsInUse: 0, requests: [] });
  });
});
