import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kapi/apimachinery';
import { deepFreeze } from '../../cacher/cache-event.js';
import { jsonBody, keepsListJson, listItemsChunks, withoutTypeMeta } from './shared-json.js';

const text = (body: string | Uint8Array) => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));

describe('jsonBody', () => {
  it('encodes a watch cache object once and gives the same bytes while they are kept', () => {
    const obj = deepFreeze({ kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    const first = jsonBody(obj);
    expect(text(first)).toBe('{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}\n');
    expect(jsonBody(obj)).toBe(first);
  });

  it('encodes anything that may change every time', () => {
    const obj: { data: Record<string, string> } = { data: { k: 'v' } };
    expect(text(jsonBody(obj))).toBe('{"data":{"k":"v"}}\n');
    obj.data.k = 'w';
    expect(text(jsonBody(obj))).toBe('{"data":{"k":"w"}}\n');
    // Frozen on the outside only: what it holds can still change, so nothing is kept either.
    const shallow = Object.freeze({ data: { k: 'v' } });
    expect(text(jsonBody(shallow))).toBe('{"data":{"k":"v"}}\n');
    shallow.data.k = 'x';
    expect(text(jsonBody(shallow))).toBe('{"data":{"k":"x"}}\n');
  });

  it('encodes many big objects right, more than it keeps', () => {
    const big = 'x'.repeat(200_000);
    const objects = Array.from({ length: 200 }, (_, i) => deepFreeze({ i, big }));
    for (const o of objects) expect(text(jsonBody(o))).toBe(`{"i":${o.i},"big":"${big}"}\n`);
    for (const o of objects) expect(text(jsonBody(o))).toBe(`{"i":${o.i},"big":"${big}"}\n`);
  });

  it('writes UTF-8', () => {
    const obj = deepFreeze({ data: { k: 'ünï 😀' } });
    expect(Buffer.from(jsonBody(obj) as Uint8Array)).toEqual(Buffer.from('{"data":{"k":"ünï 😀"}}\n', 'utf8'));
  });
});

/** The items' chunks as the client reads them. */
const listItemsJson = (...args: Parameters<typeof listItemsChunks>) => Buffer.concat(listItemsChunks(...args));

describe('listItemsChunks', () => {
  const variants: Record<string, KubeObject> = {
    'apiVersion then kind': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } },
    'kind then apiVersion': { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } },
    'kind elsewhere': { apiVersion: 'v1', metadata: { name: 'a' }, kind: 'ConfigMap' },
    'no kind': { apiVersion: 'v1', metadata: { name: 'a' } },
    'only type meta': { apiVersion: 'v1', kind: 'ConfigMap' },
    'type meta with quotes and non-ASCII': { apiVersion: 'g.example/v"1', kind: 'Ünï', metadata: { name: 'ü' } },
    'a field named like a prefix': { apiVersion: 'v1', kind: 'ConfigMap', 'kind"': 1 } as unknown as KubeObject,
    'a kind that is not a string': { apiVersion: 'v1', kind: 7, metadata: {} } as unknown as KubeObject,
  };
  const all = Object.values(variants);
  const items = (frozen: boolean) => all.map((o) => (frozen ? deepFreeze(structuredClone(o)) : o));
  const want = (list: KubeObject[], typed: boolean, from = 0, to = list.length) =>
    list.slice(from, to).map((o, i) => (from + i > 0 ? ',' : '') + JSON.stringify(typed ? withoutTypeMeta(o) : o)).join('');

  for (const [name, obj] of Object.entries(variants)) {
    it(`is JSON.stringify of the item, without its type meta in typed lists: ${name}`, () => {
      for (const item of [obj, deepFreeze(structuredClone(obj))]) {
        for (const keep of [false, true, true]) {
          expect(listItemsJson([item], 0, 1, true, keep).toString('utf8')).toBe(JSON.stringify(withoutTypeMeta(item)));
          expect(listItemsJson([item], 0, 1, false, keep).toString('utf8')).toBe(JSON.stringify(item));
        }
      }
    });
  }

  it('writes a slice of a list with commas between items and before a slice that does not start the list', () => {
    for (const frozen of [false, true]) {
      const list = items(frozen);
      for (const typed of [false, true]) {
        expect(listItemsJson(list, 0, list.length, typed, true).toString('utf8')).toBe(want(list, typed));
        expect(listItemsJson(list, 3, 6, typed, true).toString('utf8')).toBe(want(list, typed, 3, 6));
        expect(listItemsJson(list, 2, 2, typed, true).toString('utf8')).toBe('');
      }
    }
  });

  it('gives the same JSON for GETs and for lists of either kind after a typed list kept it', () => {
    for (const [name, obj] of Object.entries(variants)) {
      const list = Array.from({ length: 5 }, (_, i) => deepFreeze({ ...structuredClone(obj), metadata: { name: `${name}-${i}` } }));
      // The typed list keeps them first (each as the list writes it, when its JSON starts with its type meta).
      expect(listItemsJson(list, 0, 5, true, true).toString('utf8'), name).toBe(want(list, true));
      expect(listItemsJson(list, 0, 5, true, true).toString('utf8'), name).toBe(want(list, true));
      expect(listItemsJson(list, 2, 4, true, true).toString('utf8'), name).toBe(want(list, true, 2, 4));
      expect(listItemsJson(list, 0, 5, false, true).toString('utf8'), name).toBe(want(list, false));
      expect(listItemsJson(list, 1, 3, false, false).toString('utf8'), name).toBe(want(list, false, 1, 3));
      for (const item of list) expect(text(jsonBody(item)), name).toBe(`${JSON.stringify(item)}\n`);
      expect(keepsListJson(list)).toBe(true);
    }
  });

  it('writes the items of a typed list in order, whichever were kept by a GET, by a list or not at all', () => {
    const list = Array.from({ length: 40 }, (_, i) =>
      deepFreeze({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `m-${i}` }, data: { v: 'ü'.repeat(i * 50) } }),
    );
    for (const i of [0, 7, 8, 30]) jsonBody(list[i]!);
    expect(listItemsJson(list, 0, 20, true, true).toString('utf8')).toBe(want(list, true, 0, 20));
    expect(listItemsJson(list, 0, 40, true, false).toString('utf8')).toBe(want(list, true));
    expect(listItemsJson(list, 0, 40, true, true).toString('utf8')).toBe(want(list, true));
    expect(listItemsJson([...list].reverse(), 0, 40, true, true).toString('utf8')).toBe(want([...list].reverse(), true));
    for (const item of list) expect(text(jsonBody(item))).toBe(`${JSON.stringify(item)}\n`);
  });

  it('keeps the JSON of a list only when the list would not take more than half of what is kept', () => {
    const one = deepFreeze({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'x'.repeat(1_000) } });
    expect(keepsListJson([one, one])).toBe(true);
    // 16 MiB / 2 over about 1 KiB: about 8,000 such items.
    expect(keepsListJson(Array.from({ length: 9_000 }, () => one))).toBe(false);
    expect(keepsListJson([{ not: 'frozen' }])).toBe(false);
    expect(keepsListJson([])).toBe(false);
  });
});
