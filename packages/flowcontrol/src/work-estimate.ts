import type { AuthorizationAttributes } from '@kapi/apiserver';

/** kube's list work estimator: one seat per this many objects a list reads. */
const OBJECTS_PER_SEAT = 100;
/** kube's mutating work estimator: one final seat per this many watches a write notifies, for this long each. */
const WATCHES_PER_SEAT = 10;
const EVENT_ADDITIONAL_MS = 5;

/** kube's WorkEstimate: seats while the request runs, and seats kept for a while after (the events of a write). */
export interface WorkEstimate {
  initialSeats: number;
  finalSeats: number;
  additionalLatencyMs: number;
  /** For a write: the watches it may notify (kube's apiserver_flowcontrol_watch_count_samples). */
  watchCount?: number;
}

const ONE: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };

/**
 * How many seats a request takes (kube's WorkEstimator): one, except
 * - lists, one per 100 objects they read (up to the level's maximum), and watches that send initial events, which
 *   read like a list (`count`: the objects the resource holds, undefined when unknown);
 * - creates, updates, patches and deletes, which also keep one seat per 10 watches they may notify (`watches`, up
 *   to the level's maximum) for 5 ms of those seats' work once they end, while the events go out (none below 10
 *   watches; a ServiceAccount token request causes no event).
 */
export function estimateWork(request: AuthorizationAttributes, query: URLSearchParams, count: number | undefined, maxSeats: number, watches: (request: AuthorizationAttributes) => number): WorkEstimate {
  switch (request.verb) {
    case 'list':
    case 'watch':
      return { initialSeats: listSeats(request, query, count, maxSeats), finalSeats: 0, additionalLatencyMs: 0 };
    case 'create':
    case 'update':
    case 'patch':
    case 'delete': {
      if (request.resource === 'serviceaccounts' && request.subresource === 'token') return ONE;
      const watchCount = watches(request);
      if (watchCount < WATCHES_PER_SEAT) return { ...ONE, watchCount };
      const wanted = Math.ceil(watchCount / WATCHES_PER_SEAT);
      const finalSeats = Math.min(wanted, maxSeats);
      // Narrowed to the level's maximum, the same work takes longer.
      return { initialSeats: 1, finalSeats, additionalLatencyMs: (wanted * EVENT_ADDITIONAL_MS) / finalSeats, watchCount };
    }
    default:
      return ONE;
  }
}

function listSeats(request: AuthorizationAttributes, query: URLSearchParams, count: number | undefined, maxSeats: number): number {
  if (request.verb === 'watch' && query.get('sendInitialEvents') !== 'true') return 1;
  if (count === undefined) return 1;
  const limit = Number(query.get('limit')) > 0 ? Math.min(Number(query.get('limit')), count) : count;
  const fromCache = request.verb === 'watch' || query.get('resourceVersion') === '0' || !(Number(query.get('limit')) > 0);
  const selects = !!query.get('labelSelector') || !!query.get('fieldSelector');
  const objects = fromCache ? count : selects ? count + limit : 2 * limit;
  return Math.max(1, Math.min(Math.ceil(objects / OBJECTS_PER_SEAT), maxSeats));
}
