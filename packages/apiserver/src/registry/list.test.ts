import { isStatusError, parseLabelSelector, type KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { ALL_GROUPS, dataPlugin } from '../../test/harness.js';
import { ALL_OBJECTS, type ListOptions } from './list-options.js';
import { listRequest } from './list.js';
import { createResourceRegistry } from './resources.js';
import { encodeForStorage } from '../storage/codec.js';
import { createObjectStorage } from '../storage/object-storage.js';

const registry = createResourceRegistry(ALL_GROUPS.map(dataPlugin));
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
    ['NotOlderThan', 10, '0', { mode: 'any' }],
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

describe('continue tokens, further', () => {
  const tokenOf = (list: { metadata?: unknown }) => (list.metadata as { continue?: string }).continue;
  const status = (o: Partial<ListOptions>) => {
    try {
      listRequest(configMaps, 'default', opts(o));
    } catch (err) {
      return isStatusError(err) ? err.status.code : err;
    }
    return 'accepted';
  };

  it('are accepted with resourceVersion "0" (as kube allows), and read at the token\'s revision', () => {
    const token = tokenOf(listRequest(configMaps, 'default', opts({ limit: 1 })).toList(page(1, true)))!;
    expect(listRequest(configMaps, 'default', opts({ limit: 1, continueToken: token, resourceVersion: '0' })).request.plan).toEqual({ mode: 'exact', revision: 42 });
  });

  it('refuse tokens that are not kube\'s: another version, a revision that is not positive, no position, not base64 JSON', () => {
    const forge = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
    for (const token of [
      forge({ v: 'meta.k8s.io/v2', rv: 5, start: 'a' }),
      forge({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }),
      forge({ v: 'meta.k8s.io/v1', rv: -3, start: 'a' }),
      forge({ v: 'meta.k8s.io/v1', rv: '5', start: 'a' }),
      forge({ v: 'meta.k8s.io/v1', rv: 5 }),
      forge('just a string'),
      '%%%',
    ]) {
      expect([token, status({ limit: 1, continueToken: token })]).toEqual([token, 400]);
    }
  });

  it('walk a collection in pages at the first page\'s revision: writes between pages do not show', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    const put = (name: string, ns = 'default') =>
      backend.create(`/registry/configmaps/${ns}/${name}`, encodeForStorage({ metadata: { name, namespace: ns }, data: {} } as KubeObject));
    for (const name of ['a', 'b', 'c', 'd', 'e']) await put(name);
    await put('x', 'other');
    const read = async (o: Partial<ListOptions>) => {
      const { request, toList } = listRequest(configMaps, 'default', opts(o));
      return toList(await storage.getList(request));
    };
    const first = await read({ limit: 2 });
    expect(first.items.map((i) => (i.metadata as { name: string }).name)).toEqual(['a', 'b']);
    expect(first.metadata).toMatchObject({ remainingItemCount: 3 });
    const revision = (first.metadata as { resourceVersion: string }).resourceVersion;
    await put('bb');
    await backend.delete('/registry/configmaps/default/d');
    const seen: string[] = [];
    let token = tokenOf(first);
    while (token) {
      const next = await read({ limit: 2, continueToken: token });
      expect((next.metadata as { resourceVersion: string }).resourceVersion).toBe(revision);
      seen.push(...next.items.map((i) => (i.metadata as { name: string }).name));
      token = tokenOf(next);
    }
    expect(seen).toEqual(['c', 'd', 'e']);
  });
});
