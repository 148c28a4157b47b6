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
  /** Gives its seats back (idempotent); a rejected ticket holds none. */
  release(): void;
}

export interface QueueRequest {
  /** The flow's hash (computed only when the request must queue). */
  hash(): number;
  seats: number;
  waitLimitMs: number;
  /** Made only when the request waits: a client that leaves takes its request out of the queue. */
  signal(): AbortSignal;
  /** Told the length of its queue when the request joins it. */
  enqueued?(queueLength: number): void;
}

interface Waiting {
  seats: number;
  /** Virtual start time (start-time fair queuing): when, in seat units served, the request's turn comes. */
  start: number;
  queue: Queue;
  settle(ticket: Ticket): void;
}

class Queue {
  readonly waiting: Waiting[] = [];
  waitingSeats = 0;
  executingSeats = 0;
  /** Virtual finish time of the last request queued here. */
  lastFinish = 0;
}

const NOOP = () => {};
const REJECTED: Record<Rejection, Ticket> = {
  'queue-full': { rejected: 'queue-full', release: NOOP },
  'concurrency-limit': { rejected: 'concurrency-limit', release: NOOP },
  'time-out': { rejected: 'time-out', release: NOOP },
  cancelled: { rejected: 'cancelled', release: NOOP },
};

/**
 * The queues and seats of one priority level (kube's fairqueuing/queueset): a request runs at once while the level
 * has seats and nobody waits; otherwise its flow is shuffle-sharded to a hand of queues and it waits in the
 * shortest, up to `queueLengthLimit`. Freed seats go to the queue whose head has the earliest virtual start time
 * (start-time fair queuing, in seats), so every flow with waiting requests gets an equal share of seats whatever
 * the others send. A request waits at most its wait limit (429 `time-out`), and leaves the queue when its client
 * goes away.
 */
export class QueueSet {
  private config: QueueSetConfig;
  /** Queues by index, made when first dealt (a level may have millions; only those in use exist). */
  private queues = new Map<number, Queue>();
  private dealer: Dealer | undefined;
  private virtualTime = 0;
  executingSeats = 0;
  executingRequests = 0;
  waitingRequests = 0;
  private waitingSeats = 0;
  /** Whether requests were queued (and the virtual clock moved) since the level was last idle. */
  private queuedSinceIdle = false;
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

  /** A new concurrency limit (borrowing between levels moves it between nominal − lendable and nominal + borrowable). */
  setLimit(concurrencyLimit: number): void {
    if (concurrencyLimit === this.config.concurrencyLimit) return;
    this.config = { ...this.config, concurrencyLimit };
    this.dispatch();
  }

  /** Applies a new configuration; when the queues change, requests waiting are dealt again into the new ones, in order. */
  configure(config: QueueSetConfig): void {
    if (this.dealer && config.queues === this.config.queues && config.handSize === this.config.handSize) {
      // Same queues: they keep their requests (and their flows' places); only the limits change.
      this.config = config;
      this.dispatch();
      return;
    }
    const waiting = [...this.queues.values()].flatMap((q) => q.waiting).sort((a, b) => a.start - b.start);
    this.config = config;
    this.queues = new Map();
    this.dealer = config.queues > 0 ? new Dealer(config.queues, Math.min(config.handSize, config.queues)) : undefined;
    for (const request of waiting) {
      if (config.queues === 0) {
        // No queues any more (Reject): what waited is turned away.
        this.waitingRequests--;
        this.waitingSeats -= request.seats;
        request.settle(this.reject('concurrency-limit'));
        continue;
      }
      const queue = this.queueAt(Math.floor(request.start) % config.queues);
      request.queue = queue;
      queue.waiting.push(request);
      queue.waitingSeats += request.seats;
    }
    this.dispatch();
  }

  admit(request: QueueRequest): Ticket | Promise<Ticket> {
    const seats = Math.max(1, Math.min(request.seats, this.config.concurrencyLimit));
    if (this.waitingRequests === 0 && this.fits(seats)) return this.run(seats, undefined);
    if (!this.dealer) return this.reject('concurrency-limit');
    const queue = this.shortest(this.dealer.deal(request.hash()));
    if (queue.waiting.length >= this.config.queueLengthLimit) return this.reject('queue-full');
    const start = Math.max(this.virtualTime, queue.lastFinish);
    queue.lastFinish = start + seats;
    this.queuedSinceIdle = true;
    return new Promise<Ticket>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let signal: AbortSignal | undefined;
      const leave = (reason: Rejection) => {
        if (!this.remove(waiting)) return;
        waiting.settle(this.reject(reason));
        this.dispatch();
      };
      const onAbort = () => leave('cancelled');
      const waiting: Waiting = {
        seats,
        start,
        queue,
        settle: (ticket) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(ticket);
        },
      };
      queue.waiting.push(waiting);
      queue.waitingSeats += seats;
      this.waitingRequests++;
      this.waitingSeats += seats;
      this.noteDemand();
      request.enqueued?.(queue.waiting.length);
      timer = setTimeout(() => leave('time-out'), request.waitLimitMs);
      signal = request.signal();
      if (signal.aborted) leave('cancelled');
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private noteDemand(): void {
    this.demand.set(this.executingSeats + this.waitingSeats);
  }

  /** A request fits when its seats are free, or when nothing runs (one wider than the level runs alone). */
  private fits(seats: number): boolean {
    // As kube's queueset: a request wider than the limit (or any request, at a limit of 0) runs when nothing else does.
    return this.executingSeats === 0 || this.executingSeats + seats <= this.config.concurrencyLimit;
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

  private run(seats: number, queue: Queue | undefined): Ticket {
    this.totals.dispatched++;
    this.executingSeats += seats;
    this.executingRequests++;
    if (queue) queue.executingSeats += seats;
    this.noteDemand();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.executingSeats -= seats;
        this.executingRequests--;
        if (queue) queue.executingSeats -= seats;
        this.noteDemand();
        this.dispatch();
      },
    };
  }

  /** The queue of the hand with the fewest seats waiting and running in it (the first such, in dealing order). */
  private shortest(hand: number[]): Queue {
    let best = hand[0];
    let least = Infinity;
    for (const index of hand) {
      const queue = this.queues.get(index);
      const load = queue ? queue.waitingSeats + queue.executingSeats : 0;
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
    if (!queue) this.queues.set(index, (queue = new Queue()));
    return queue;
  }

  private remove(request: Waiting): boolean {
    const at = request.queue.waiting.indexOf(request);
    if (at < 0) return false;
    request.queue.waiting.splice(at, 1);
    request.queue.waitingSeats -= request.seats;
    this.waitingRequests--;
    this.waitingSeats -= request.seats;
    this.noteDemand();
    return true;
  }

  /** Runs waiting requests, earliest virtual start first, while their seats are free. */
  private dispatch(): void {
    while (this.waitingRequests > 0) {
      let next: Queue | undefined;
      for (const queue of this.queues.values()) {
        const head = queue.waiting[0];
        if (head && (!next || head.start < next.waiting[0].start)) next = queue;
      }
      if (!next) return;
      const head = next.waiting[0];
      if (!this.fits(head.seats)) return;
      next.waiting.shift();
      next.waitingSeats -= head.seats;
      this.waitingRequests--;
      this.waitingSeats -= head.seats;
      this.virtualTime = Math.max(this.virtualTime, head.start);
      head.settle(this.run(head.seats, next));
    }
    // Idle: what flows used before no longer counts against them (only queued requests moved the clock).
    if (this.executingRequests === 0 && this.queuedSinceIdle) {
      this.queuedSinceIdle = false;
      this.virtualTime = 0;
      this.queues.clear();
    }
  }
}
