import type { AuthorizationAttributes } from '@kapi/apiserver';
import { describe, expect, it } from 'vitest';
import { WatchTracker } from './watch-tracker.js';
import { estimateWork } from './work-estimate.js';

const attrs = (verb: string, namespace = 'ns', name = '', resource = 'configmaps', subresource = ''): AuthorizationAttributes => ({
  user: { username: 'u', groups: [] }, verb, resourceRequest: true, path: '/api/v1/namespaces/ns/configmaps', apiGroup: '', apiVersion: 'v1', resource, subresource, namespace, name,
}) as AuthorizationAttributes;
const none = new URLSearchParams();

describe("kube's work estimate of a write: final seats for the watches it notifies", () => {
  it('counts the watches of the resource, of its namespace and of the object, and forgets ended ones once', () => {
    const tracker = new WatchTracker();
    const forget = [
      tracker.register(attrs('watch', '')), // every namespace
      tracker.register(attrs('watch', 'ns')),
      tracker.register(attrs('watch', 'other')),
      tracker.register(attrs('watch', 'ns', 'cm')), // fieldSelector=metadata.name=cm
      tracker.register(attrs('watch', '', '', 'secrets')),
    ];
    expect(tracker.interested(attrs('update', 'ns', 'cm'))).toBe(3);
    expect(tracker.interested(attrs('create', 'ns'))).toBe(2); // a create names no object
    expect(tracker.interested(attrs('delete', 'other', 'x'))).toBe(2);
    expect(tracker.interested(attrs('get', 'ns', 'cm'))).toBe(0);
    forget[0]();
    forget[0]();
    expect(tracker.interested(attrs('update', 'ns', 'cm'))).toBe(2);
    expect(tracker.register(attrs('list'))).toBeTypeOf('function'); // not a watch: nothing counted
    expect(tracker.interested(attrs('update', 'ns', 'cm'))).toBe(2);
  });

  it('below 10 watches a write takes one seat; from 10, one final seat per 10 for 5 ms, narrowed to the level maximum', () => {
    const estimate = (watches: number, maxSeats = 10, a = attrs('patch', 'ns', 'cm')) => estimateWork(a, none, undefined, maxSeats, () => watches);
    expect(estimate(9)).toEqual({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0, watchCount: 9 });
    expect(estimate(10)).toEqual({ initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5, watchCount: 10 });
    expect(estimate(25)).toEqual({ initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5, watchCount: 25 });
    // 130 watches want 13 seats for 5 ms; a level whose widest request is 10 seats keeps 10 for 6.5 ms.
    expect(estimate(130)).toEqual({ initialSeats: 1, finalSeats: 10, additionalLatencyMs: 6.5, watchCount: 130 });
    expect(estimate(130, 4)).toEqual({ initialSeats: 1, finalSeats: 4, additionalLatencyMs: 16.25, watchCount: 130 });
    // A ServiceAccount token causes no event; deletecollection and reads are not estimated as writes.
    expect(estimate(500, 10, attrs('create', 'ns', 'sa', 'serviceaccounts', 'token'))).toEqual({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
    expect(estimate(500, 10, attrs('deletecollection', 'ns'))).toEqual({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
    expect(estimate(500, 10, attrs('get', 'ns', 'cm'))).toEqual({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  });

  it('lists still take a seat per 100 objects they read', () => {
    expect(estimateWork(attrs('list'), none, 5_000, 10, () => 0).initialSeats).toBe(10);
    expect(estimateWork(attrs('list'), new URLSearchParams('limit=500&resourceVersion=1'), 5_000, 10, () => 0).initialSeats).toBe(10);
    expect(estimateWork(attrs('list'), new URLSearchParams('limit=100&resourceVersion=1'), 5_000, 10, () => 0).initialSeats).toBe(2);
    expect(estimateWork(attrs('watch'), none, 5_000, 10, () => 0).initialSeats).toBe(1);
  });
});
