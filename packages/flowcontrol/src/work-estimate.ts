import type { AuthorizationAttributes } from '@kapi/apiserver';

/** kube's list work estimator: one seat per this many objects a list reads. */
const OBJECTS_PER_SEAT = 100;

/**
 * How many seats a request takes (kube's WorkEstimator, initial seats): one, except lists, which take one per 100
 * objects they read (up to the level's maximum), and watches that send initial events, which read like a list.
 * `count` is how many objects the resource holds, undefined when unknown.
 */
export function estimateSeats(request: AuthorizationAttributes, query: URLSearchParams, count: number | undefined, maxSeats: number): number {
  if (request.verb !== 'list' && request.verb !== 'watch') return 1;
  if (request.verb === 'watch' && query.get('sendInitialEvents') !== 'true') return 1;
  if (count === undefined) return 1;
  const limit = Number(query.get('limit')) > 0 ? Math.min(Number(query.get('limit')), count) : count;
  const fromCache = request.verb === 'watch' || query.get('resourceVersion') === '0' || !(Number(query.get('limit')) > 0);
  const selects = !!query.get('labelSelector') || !!query.get('fieldSelector');
  const objects = fromCache ? count : selects ? count + limit : 2 * limit;
  return Math.max(1, Math.min(Math.ceil(objects / OBJECTS_PER_SEAT), maxSeats));
}
