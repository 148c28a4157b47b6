import { Dealer } from './dealer.js';
import { Integrator } from './integrator.js';

/** How one priority level shares its seats (a Limited PriorityLevelConfiguration, after concurrency allocation). */
export interface QueueSetConfig {
  /** Seats the level may use at once (its nominal concurrency limit). */
  concurrencyLimit: number;
  /** Queues; 0 means `limitResponse.type: Reject` (no queuing: a request that does not fit is turned away). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** Why a request did not run: kube's `apiserver_flowcontrol_rejected_requests_total` reasons. */
export type Rejection = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

export interface Ticket {
  /** Undefined when the request runs; otherwise why it was turned away. */
  rejected?: Rejection;
  /**
   * Gives its seats back (idempotent); a rejected ticket holds none. A request with final seats keeps them for its
   * additional latency first (kube's work estimate: the watch events a write causes are still being sent).
   */
  release(): void;
}

/** What kube's debug dump of requests shows of a waiting request. */
export interface RequestDigest {
  flowSchema: string;
  distinguisher: string;
  user: string;
  verb: string;
  path: string;
  namespace: string;
  name: string;
  /** group/version, or the version alone for the core group. */
  apiVersion: string;
  resource: string;
  subresource: string;
}

export interface QueueRequest {
  /** The flow's hash (which queues the flow may use). */
  hash(): number;
  /** Seats the request takes while it runs (kube's InitialSeats). */
  seats: number;
  /** Seats it keeps for `additionalLatencyMs` after it ends (kube's FinalSeats: the watch events of a write). */
  finalSeats?: number;
  additionalLatencyMs?: number;
  waitLimitMs: number;
  /** Made only when the request waits: a client that leaves takes its request out of the queue. */
  signal(): AbortSignal;
  /** Told the length of its queue when the request joins it (every request of a level with queues joins one). */
  enqueued?(queueLength: number): void;
  /** For the debug dump of waiting requests. */
  digest?(): RequestDigest;
}

/** kube's estimated service duration of a request (G): its work is counted as G per seat until it ends. */
const ESTIMATED_SERVICE_SECONDS = 3;

class QueuedRequest {
  /** R when it arrived: the queue's next dispatch is never put before it. */
  arrivalR = 0;
  /** Wall clock when it arrived, and when it started to run (ms, performance.now()). */
  readonly arrivedAt = Date.now();
  startedAt = 0;
  settle: (ticket: Ticket) => void = () => {};

  constructor(
    readonly initialSeats: number,
    public finalSeats: number,
    public additionalLatencyMs: number,
    public queue: Queue,
    readonly digest: (() => RequestDigest) | undefined,
  ) {}

  /** The seats it holds: while it runs, and after, the wider of its initial and final seats (kube's MaxSeats). */
  get maxSeats(): number {
    return Math.max(this.initialSeats, this.finalSeats);
  }

  /** Its work in seat-seconds: the initial seats for G, the final seats for the additional latency. */
  get totalWork(): number {
    return this.initialSeats * ESTIMATED_SERVICE_SECONDS + (this.finalSeats * this.additionalLatencyMs) / 1000;
  }
}

class Queue {
  readonly waiting: QueuedRequest[] = [];
  /** The seats its waiting requests will hold (kept as they come and go). */
  waitingMaxSeats = 0;
  executingRequests = 0;
  seatsInUse = 0;
  /** R at which the queue's next request may be dispatched (kube's nextDispatchR), in seat-seconds. */
  nextDispatchR = 0;

  constructor(readonly index: number) {}

  get idle(): boolean {
    return this.waiting.length === 0 && this.executingRequests === 0 && this.seatsInUse === 0;
  }
}

/** One queue as kube's `dump_queues` shows it. */
export interface QueueDigest {
  index: number;
  pending: number;
  executing: number;
  seatsInUse: number;
  nextDispatchR: number;
  initialSeatsSum: number;
  maxSeatsSum: number;
  totalWorkSum: number;
  requests: { arrivedAt: number; initialSeats: number; finalSeats: number; additionalLatencyMs: number; digest?: RequestDigest }[];
}

const NOOP = () => {};
const REJECTED: Record<Rejection, Ticket> = {
  'queue-full': { rejected: 'queue-full', release: NOOP },
  'concurrency-limit': { rejected: 'concurrency-limit', release: NOOP },
  'time-out': { rejected: 'time-out', release: NOOP },
  cancelled: { rejected: 'cancelled', release: NOOP },
};

/**
 * The queues and seats of one priority level, as kube's fairqueuing/queueset shares them: each request's flow is
 * shuffle-sharded to a hand of queues and it joins the one with the fewest seats waiting and in use, up to
 * `queueLengthLimit`. Seats go to the queue whose oldest request would finish first in virtual time: R grows, in
 * seat-seconds, at the rate each active queue would be served if the level's seats were shared equally among them,
 * a queue's next dispatch is put R forward by each request's estimated work (its initial seats for 3 s, plus its
 * final seats for its additional latency) and back again by what it did not use once it ends. So every flow with
 * requests gets an equal share of seat-seconds, whatever the others send. A request waits at most its wait limit
 * (429 `time-out`), and leaves the queue when its client goes away.
 */
export class QueueSet {
  private config: QueueSetConfig;
  /** Queues by index, made when first dealt (a level may have millions; only those in use exist). */
  private queues = new Map<number, Queue>();
  private dealer: Dealer | undefined;
  /** kube's currentR (seat-seconds) and the wall clock it was last brought up to (ms). */
  private currentR = 0;
  private lastRealTime = performance.now();
  /** The queue index after which the search for the next dispatch starts (ties go round-robin). */
  private robinIndex = -1;
  executingSeats = 0;
  executingRequests = 0;
  waitingRequests = 0;
  private waitingSeats = 0;
  /** Seat demand (seats running plus seats waiting) over time, which borrowing between levels reads. */
  readonly demand = new Integrator();
  /** Requests run and turned away since the level was made (kube's debug dump counts them). */
  readonly totals = { dispatched: 0, rejected: 0, timedOut: 0, cancelled: 0 };

  constructor(config: QueueSetConfig) {
    this.config = config;
    this.configure(config);
  }

  get concurrencyLimit(): number {
    return this.config.concurrencyLimit;
  }

  get queueCount(): number {
    return this.config.queues;
  }

  /** R now, in seat-seconds (kube's apiserver_flowcontrol_current_r). */
  get virtualTime(): number {
    this.syncTime();
    return this.currentR;
  }

  /** A new concurrency limit (borrowing between levels moves it between nominal − lendable and nominal + borrowable). */
  setLimit(concurrencyLimit: number): void {
    if (concurrencyLimit === this.config.concurrencyLimit) return;
    this.syncTime();
    this.config = { ...this.config, concurrencyLimit };
    this.dispatch();
  }

  /** Applies a new configuration; when the queues change, requests waiting are dealt again into the new ones, in order. */
  configure(config: QueueSetConfig): void {
    this.syncTime();
    if (this.dealer && config.queues === this.config.queues && config.handSize === this.config.handSize) {
      // Same queues: they keep their requests (and their flows' places); only the limits change.
      this.config = config;
      this.dispatch();
      return;
    }
    const waiting = [...this.queues.values()].flatMap((q) => q.waiting).sort((a, b) => a.arrivalR - b.arrivalR || a.arrivedAt - b.arrivedAt);
    // Running requests give their seats back to the queue they ran from, kept aside from the new ones.
    const running = [...this.queues.values()].filter((q) => q.executingRequests > 0 || q.seatsInUse > 0);
    this.config = config;
    this.queues = new Map();
    for (const q of running) {
      q.waiting.length = 0;
      q.waitingMaxSeats = 0;
    }
    this.dealer = config.queues > 0 ? new Dealer(config.queues, Math.min(config.handSize, config.queues)) : undefined;
    for (const request of waiting) {
      if (config.queues === 0) {
        // No queues any more (Reject): what waited is turned away.
        this.waitingRequests--;
        this.waitingSeats -= request.maxSeats;
        request.settle(this.reject('concurrency-limit'));
        continue;
      }
      const queue = this.queueAt(request.queue.index % config.queues);
      if (queue.waiting.length === 0 && queue.executingRequests === 0) queue.nextDispatchR = Math.max(queue.nextDispatchR, this.currentR);
      request.queue = queue;
      queue.waiting.push(request);
      queue.waitingMaxSeats += request.maxSeats;
    }
    this.dispatch();
  }

  admit(request: QueueRequest): Ticket | Promise<Ticket> {
    this.syncTime();
    const initial = Math.max(1, request.seats);
    const final = request.finalSeats ?? 0;
    if (!this.dealer) {
      // Reject: no queues, the request runs now or not at all.
      const r = new QueuedRequest(initial, final, request.additionalLatencyMs ?? 0, new Queue(-1), undefined);
      if (!this.canAccommodate(r.maxSeats)) return this.reject('concurrency-limit');
      return this.run(r);
    }
    const queue = this.shortest(this.dealer.deal(request.hash()));
    if (queue.waiting.length >= this.config.queueLengthLimit) return this.reject('queue-full');
    const r = new QueuedRequest(initial, final, request.additionalLatencyMs ?? 0, queue, request.digest);
    // A queue that was empty starts its turns now: what it was owed before does not carry over.
    if (queue.waiting.length === 0 && queue.executingRequests === 0) queue.nextDispatchR = this.currentR;
    r.arrivalR = this.currentR;
    if (this.waitingRequests === 0 && this.executingSeats < this.config.concurrencyLimit && this.canAccommodate(r.maxSeats)) {
      // Nobody waits and its seats are free: enqueued, it would be the one dispatched at once (kube does both).
      // Done in one step: a request that never waits is never put in the queue's array.
      request.enqueued?.(queue.waiting.length + 1);
      return this.start(r, queue);
    }
    queue.waiting.push(r);
    queue.waitingMaxSeats += r.maxSeats;
    this.waitingRequests++;
    this.waitingSeats += r.maxSeats;
    this.noteDemand();
    request.enqueued?.(queue.waiting.length);
    let settled: Ticket | undefined;
    r.settle = (ticket) => (settled = ticket);
    this.dispatch();
    if (settled) return settled;
    return new Promise<Ticket>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let signal: AbortSignal | undefined;
      const leave = (reason: Rejection) => {
        this.syncTime();
        if (!this.remove(r)) return;
        r.settle(this.reject(reason));
        this.dispatch();
      };
      const onAbort = () => leave('cancelled');
      r.settle = (ticket) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(ticket);
      };
      timer = setTimeout(() => leave('time-out'), request.waitLimitMs);
      signal = request.signal();
      if (signal.aborted) leave('cancelled');
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The queues as kube's `dump_queues` lists them (every index while there are at most `max` queues). */
  dumpQueues(max = 10_000): QueueDigest[] {
    this.syncTime();
    const digest = (index: number, q: Queue | undefined): QueueDigest => ({
      index,
      pending: q?.waiting.length ?? 0,
      executing: q?.executingRequests ?? 0,
      seatsInUse: q?.seatsInUse ?? 0,
      nextDispatchR: q?.nextDispatchR ?? 0,
      initialSeatsSum: q ? q.waiting.reduce((s, r) => s + r.initialSeats, 0) : 0,
      maxSeatsSum: q?.waitingMaxSeats ?? 0,
      totalWorkSum: q ? q.waiting.reduce((s, r) => s + r.totalWork, 0) : 0,
      requests: (q?.waiting ?? []).map((r) => ({ arrivedAt: r.arrivedAt, initialSeats: r.initialSeats, finalSeats: r.finalSeats, additionalLatencyMs: r.additionalLatencyMs, digest: r.digest?.() })),
    });
    if (this.config.queues <= max) return Array.from({ length: this.config.queues }, (_, i) => digest(i, this.queues.get(i)));
    return [...this.queues.entries()].sort((a, b) => a[0] - b[0]).map(([i, q]) => digest(i, q));
  }

  /** Brings R up to now: it grows by the seats asked for (at most the limit) shared among the active queues. */
  private syncTime(): void {
    const now = performance.now();
    const seconds = (now - this.lastRealTime) / 1000;
    this.lastRealTime = now;
    let active = 0;
    let requested = 0;
    for (const q of this.queues.values()) {
      if (q.waiting.length === 0 && q.executingRequests === 0) continue;
      active++;
      requested += q.seatsInUse + q.waitingMaxSeats;
    }
    if (active > 0 && seconds > 0) this.currentR += (Math.min(requested, this.config.concurrencyLimit) / active) * seconds;
  }

  private noteDemand(): void {
    this.demand.set(this.executingSeats + this.waitingSeats);
  }

  /**
   * Whether `seats` more fit now. As kube's queueset: a request wider than the limit (or any request, at a limit of
   * 0) runs when nothing else runs.
   */
  private canAccommodate(seats: number): boolean {
    if (seats > this.config.concurrencyLimit) return this.executingRequests === 0;
    return this.executingSeats + seats <= this.config.concurrencyLimit;
  }

  /** How many queues hold waiting requests now. */
  get activeQueues(): number {
    let active = 0;
    for (const queue of this.queues.values()) if (queue.waiting.length > 0) active++;
    return active;
  }

  private reject(reason: Rejection): Ticket {
    if (reason === 'time-out') this.totals.timedOut++;
    else if (reason === 'cancelled') this.totals.cancelled++;
    else this.totals.rejected++;
    return REJECTED[reason];
  }

  private run(r: QueuedRequest): Ticket {
    this.totals.dispatched++;
    const seats = r.maxSeats;
    const queue = r.queue;
    r.startedAt = performance.now();
    this.executingSeats += seats;
    this.executingRequests++;
    queue.executingRequests++;
    queue.seatsInUse += seats;
    this.noteDemand();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.syncTime();
        this.executingRequests--;
        queue.executingRequests--;
        // What it did not use of its estimated service time goes back to its queue.
        const used = (performance.now() - r.startedAt) / 1000;
        queue.nextDispatchR -= r.initialSeats * (ESTIMATED_SERVICE_SECONDS - used);
        this.boundNextDispatch(queue);
        const freeSeats = () => {
          this.syncTime();
          this.executingSeats -= seats;
          queue.seatsInUse -= seats;
          if (queue.idle && this.queues.get(queue.index) === queue) this.queues.delete(queue.index);
          this.noteDemand();
          this.dispatch();
        };
        if (r.additionalLatencyMs > 0 && r.finalSeats > 0) setTimeout(freeSeats, r.additionalLatencyMs).unref?.();
        else freeSeats();
      },
    };
  }

  /** A queue's next dispatch is never before its oldest waiting request arrived. */
  private boundNextDispatch(queue: Queue): void {
    const oldest = queue.waiting[0];
    if (oldest && queue.nextDispatchR < oldest.arrivalR) queue.nextDispatchR = oldest.arrivalR;
  }

  /** The queue of the hand with the fewest seats waiting and running in it (the first such, in dealing order). */
  private shortest(hand: number[]): Queue {
    let best = hand[0];
    let least = Infinity;
    for (const index of hand) {
      const queue = this.queues.get(index);
      const load = queue ? queue.waitingMaxSeats + queue.seatsInUse : 0;
      if (load < least) {
        least = load;
        best = index;
        if (load === 0) break;
      }
    }
    return this.queueAt(best);
  }

  private queueAt(index: number): Queue {
    let queue = this.queues.get(index);
    if (!queue) this.queues.set(index, (queue = new Queue(index)));
    return queue;
  }

  private remove(request: QueuedRequest): boolean {
    const queue = request.queue;
    const at = queue.waiting.indexOf(request);
    if (at < 0) return false;
    queue.waiting.splice(at, 1);
    queue.waitingMaxSeats -= request.maxSeats;
    this.waitingRequests--;
    this.waitingSeats -= request.maxSeats;
    if (queue.idle && this.queues.get(queue.index) === queue) this.queues.delete(queue.index);
    this.noteDemand();
    return true;
  }

  /**
   * Runs waiting requests while their seats are free: each time the oldest request of the queue whose virtual
   * finish (its next dispatch R plus that request's work) is earliest; ties go to the queue after the last chosen.
   */
  private dispatch(): void {
    const n = this.config.queues;
    // As kube's: nothing is dispatched from the queues while the seats in use reach the limit (a level at 0 seats
    // runs nothing until it borrows some); a request wider than the limit runs when nothing else does.
    while (this.waitingRequests > 0 && this.executingSeats < this.config.concurrencyLimit) {
      let best: Queue | undefined;
      let bestFinish = Infinity;
      let bestOrder = Infinity;
      for (const queue of this.queues.values()) {
        const head = queue.waiting[0];
        if (!head) continue;
        const finish = queue.nextDispatchR + head.totalWork;
        const order = (queue.index - this.robinIndex - 1 + n) % n;
        if (finish < bestFinish || (finish === bestFinish && order < bestOrder)) {
          best = queue;
          bestFinish = finish;
          bestOrder = order;
        }
      }
      if (!best) return;
      const head = best.waiting[0];
      if (!this.canAccommodate(head.maxSeats)) return;
      best.waiting.shift();
      best.waitingMaxSeats -= head.maxSeats;
      this.waitingRequests--;
      this.waitingSeats -= head.maxSeats;
      head.settle(this.start(head, best));
    }
  }

  /** Runs a request taken from `queue` (or that would have been): its queue moves on by its estimated work. */
  private start(r: QueuedRequest, queue: Queue): Ticket {
    // Final seats wider than the level are narrowed to it, over a longer latency: the same work.
    if (r.finalSeats > this.config.concurrencyLimit && this.config.concurrencyLimit > 0) {
      const work = r.finalSeats * r.additionalLatencyMs;
      r.finalSeats = this.config.concurrencyLimit;
      r.additionalLatencyMs = work / r.finalSeats;
    }
    this.robinIndex = queue.index;
    queue.nextDispatchR += r.totalWork;
    this.boundNextDispatch(queue);
    return this.run(r);
  }
}
