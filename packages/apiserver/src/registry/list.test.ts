import { isStatusError, parseLabelSelector } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { ALL_GROUPS } from '../../test/harness.js';
import { groupPlugin } from '../plugin.js';
import { ALL_OBJECTS, type ListOptions } from './list-options.js';
import { listRequest } from './list.js';
import { createResourceRegistry } from './resources.js';

const registry = createResourceRegistry(ALL_GROUPS.map((g) => groupPlugin(g)));
const configMaps = registry.lookup('', 'v1', 'configmaps')!;
const opts = (o: Partial<ListOptions>): ListOptions => ({ ...ALL_OBJECTS, ...o });
const plan = (o: Partial<ListOptions>) => listRequest(configMaps, 'default', opts(o)).request.plan;
const page = (items: number, more: boolean) => ({
  items: Array.from({ length: items }, (_, i) => ({ metadata: { name: `c${i}` } })),
  revision: 42,
  lastKey: `/registry/configmaps/default/c${items - 1}`,
  more,
  remaining: more ? 3 : 0,
});

describe('listRequest: the read plan of every cell of kube\'s list table', () => {
  // [resourceVersionMatch, limit, resourceVersion] → plan (docs/lists-and-watches.md)
  const cases: [string, number, string, unknown][] = [
    ['', 0, '', { mode: 'consistent' }],
    ['', 0, '0', { mode: 'any' }],
    ['', 0, '7', { mode: 'notOlderThan', revision: 7 }],
    ['', 10, '', { mode: 'consistent' }],
    ['', 10, '0', { mode: 'any' }],
    ['', 10, '7', { mode: 'exact', revision: 7 }],
    ['Exact', 0, '7', { mode: 'exact', revision: 7 }],
    ['Exact', 10, '7', { mode: 'exact', revision: 7 }],
    ['NotOlderThan', 0, '0', { mode: 'any' }],
    ['NotOlderThan', 0, '7', { mode: 'notOlderThan', revision: 7 }],
    ['NotOlderThan', 10, '7', { mode: 'notOlderThan', revision: 7 }],
  ];
  it.each(cases)('match=%s limit=%d rv=%s', (resourceVersionMatch, limit, resourceVersion, expected) => {
    expect(plan({ resourceVersionMatch, limit, resourceVersion })).toEqual(expected);
  });

  it('reads one namespace or the whole collection', () => {
    expect(listRequest(configMaps, 'default', ALL_OBJECTS).request).toMatchObject({ keyPrefix: '/registry/configmaps/', prefix: '/registry/configmaps/default/' });
    expect(listRequest(configMaps, '', ALL_OBJECTS).request.prefix).toBe('/registry/configmaps/');
  });
});

describe('continue tokens', () => {
  it('carry the revision and the next key: the next page is an exact read from there', () => {
    const first = listRequest(configMaps, 'default', opts({ limit: 2 }));
    const list = first.toList(page(2, true));
    expect(list.metadata).toMatchObject({ resourceVersion: '42', remainingItemCount: 3 });
    const token = (list.metadata as { continue: string }).continue;
    const next = listRequest(configMaps, 'default', opts({ limit: 2, continueToken: token })).request;
    expect(next.plan).toEqual({ mode: 'exact', revision: 42 });
    expect(next.startKey).toBe('/registry/configmaps/default/c1\u0000');
  });

  it('are absent on the last page; remainingItemCount is absent with selectors', () => {
    expect(listRequest(configMaps, 'default', opts({ limit: 2 })).toList(page(1, false)).metadata).toEqual({ resourceVersion: '42' });
    const filtered = listRequest(configMaps, 'default', opts({ limit: 2, labelSelector: parseLabelSelector('a=b') })).toList(page(2, true));
    expect(filtered.metadata).not.toHaveProperty('remainingItemCount');
    expect(filtered.metadata).toHaveProperty('continue');
  });

  it('refuse a malformed token and a resourceVersion beside one with 400', () => {
    const status = (o: Partial<ListOptions>) => {
      try {
        listRequest(configMaps, 'default', opts(o));
      } catch (err) {
        return isStatusError(err) ? [err.status.code, err.status.message] : err;
      }
      return 'no error';
    };
    expect(status({ continueToken: 'not-a-token' })).toEqual([400, 'continue key is not valid: not-a-token']);
    const token = (listRequest(configMaps, 'default', opts({ limit: 1 })).toList(page(1, true)).metadata as { continue: string }).continue;
    expect(status({ continueToken: token, resourceVersion: '5' })).toEqual([400, 'specifying resource version is not allowed when using continue']);
  });
});
