import { newTooManyRequests } from '@kapi/apimachinery';
import type { GateDecision, GatedRequest, PluginHost, RequestGate } from '@kapi/apiserver';
import { classify, distinguisherOf, type ClassifiedSchema, type FlowConfig } from './config.js';
import { flowHash } from './dealer.js';
import type { Rejection, RequestDigest, Ticket } from './queue-set.js';
import { RetryAfterTracker } from './retry-after.js';
import { WatchTracker } from './watch-tracker.js';
import { estimateWork, type WorkEstimate } from './work-estimate.js';

/** kube's message for a request APF turns away. */
export const TOO_MANY_REQUESTS = 'Too many requests, please try again later.';

export interface GateMetrics {
  rejected(schema: ClassifiedSchema, reason: Rejection): void;
  dispatched(schema: ClassifiedSchema): void;
  /** A request joined a queue of `length` requests (itself included). */
  enqueued(schema: ClassifiedSchema, length: number): void;
  /** A request left its queue after `seconds`, to run or not. */
  waited(schema: ClassifiedSchema, seconds: number, executed: boolean): void;
  /** A request of a limited level was estimated (kube observes the watch count of writes, and the seats). */
  estimated(schema: ClassifiedSchema, work: WorkEstimate): void;
  /** A request ran for `seconds` (a watch: until its stream began). */
  executed(schema: ClassifiedSchema, seconds: number, watch: boolean): void;
}

const NOOP = () => {};

/**
 * API Priority and Fairness as a request gate (kube's WithPriorityAndFairness): classify the request by the first
 * FlowSchema that matches, run it at once on an exempt level, otherwise take its seats from its level's queue set,
 * waiting in its flow's queue when they are taken. Every answer carries the UIDs of the schema and level; one turned
 * away is 429 with a `Retry-After` that grows while its level keeps dropping requests.
 */
export function createGate(config: () => FlowConfig, host: Pick<PluginHost, 'registry' | 'objectCount'>, metrics?: GateMetrics, watches = new WatchTracker()): RequestGate {
  const retryAfter = new RetryAfterTracker();
  const interested = watches.interested.bind(watches);
  const objectCount = (request: GatedRequest) => {
    const a = request.attributes;
    const entry = host.registry.lookup(a.apiGroup, a.apiVersion, a.resource);
    return entry ? host.objectCount(entry) : undefined;
  };
  const settle = (request: GatedRequest, schema: ClassifiedSchema, seats: number, ticket: Ticket): GateDecision => {
    const counts = schema.counts;
    if (ticket.rejected) {
      metrics?.rejected(schema, ticket.rejected);
      retryAfter.record(schema.level.name);
      return { headers: schema.headers, rejection: newTooManyRequests(TOO_MANY_REQUESTS, retryAfter.retryAfter(schema.level.name)), release: NOOP };
    }
    metrics?.dispatched(schema);
    counts.executing++;
    counts.executingSeats += seats;
    const watch = request.attributes.verb === 'watch';
    const startedAt = metrics && performance.now();
    // The server calls `release` once, when the request is answered, and `watchEnded` once a watch is over.
    return {
      headers: schema.headers,
      release: () => {
        counts.executing--;
        counts.executingSeats -= seats;
        ticket.release();
        if (startedAt !== undefined) metrics!.executed(schema, (performance.now() - startedAt) / 1000, watch);
      },
      watchEnded: watch ? watches.register(request.attributes) : undefined,
    };
  };
  return {
    admit(request) {
      const schema = classify(config(), request.attributes);
      const level = schema.level;
      if (level.exempt || !level.queueSet) {
        // Exempt requests wait for nothing; what they use still counts in borrowing (kube counts it too).
        const load = level.load;
        load.dispatched++;
        load.demand.set(++load.executing);
        return settle(request, schema, 0, { release: () => load.demand.set(--load.executing) });
      }
      const a = request.attributes;
      const work = estimateWork(a, request.query, a.verb === 'list' || a.verb === 'watch' ? objectCount(request) : undefined, level.maxSeats, interested);
      metrics?.estimated(schema, work);
      const seats = Math.max(work.initialSeats, work.finalSeats);
      const ticket = level.queueSet.admit({
        hash: () => flowHash(schema.name, distinguisherOf(schema, a)),
        seats: work.initialSeats,
        finalSeats: work.finalSeats,
        additionalLatencyMs: work.additionalLatencyMs,
        waitLimitMs: request.waitLimitMs,
        signal: request.signal,
        enqueued: metrics && ((length) => metrics.enqueued(schema, length)),
        digest: () => digestOf(schema, a),
      });
      if (!(ticket instanceof Promise)) return settle(request, schema, seats, ticket);
      schema.counts.waiting++;
      schema.counts.waitingSeats += seats;
      const queuedAt = performance.now();
      return ticket.then((t) => {
        schema.counts.waiting--;
        schema.counts.waitingSeats -= seats;
        metrics?.waited(schema, (performance.now() - queuedAt) / 1000, !t.rejected);
        return settle(request, schema, seats, t);
      });
    },
  };
}

/** What kube's `dump_requests` shows of a waiting request. */
function digestOf(schema: ClassifiedSchema, a: GatedRequest['attributes']): RequestDigest {
  return {
    flowSchema: schema.name,
    distinguisher: distinguisherOf(schema, a),
    user: a.user.username,
    verb: a.verb,
    path: a.path,
    namespace: a.namespace,
    name: a.name,
    apiVersion: a.apiGroup ? `${a.apiGroup}/${a.apiVersion}` : a.apiVersion,
    resource: a.resource,
    subresource: a.subresource,
  };
}
