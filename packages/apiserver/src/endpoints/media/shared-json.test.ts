import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kapi/apimachinery';
import { deepFreeze } from '../../cacher/cache-event.js';
import { jsonBody, listItemJson, withoutTypeMeta } from './shared-json.js';

const text = (body: string | Uint8Array) => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
const itemText = (parts: Uint8Array[]) => Buffer.concat(parts).toString('utf8');

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

describe('listItemJson', () => {
  const variants: Record<string, KubeObject> = {
    'apiVersion then kind': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } },
    'kind then apiVersion': { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } },
    'kind elsewhere': { apiVersion: 'v1', metadata: { name: 'a' }, kind: 'ConfigMap' },
    'no kind': { apiVersion: 'v1', metadata: { name: 'a' } },
    'only type meta': { apiVersion: 'v1', kind: 'ConfigMap' },
    'type meta with quotes and non-ASCII': { apiVersion: 'g.example/v"1', kind: 'Ünï', metadata: { name: 'ü' } },
    'a field named like a prefix': { apiVersion: 'v1', kind: 'ConfigMap', 'kind"': 1 } as unknown as KubeObject,
  };
  for (const [name, obj] of Object.entries(variants)) {
    it(`is JSON.stringify of the item, without its type meta in typed lists: ${name}`, () => {
      for (const item of [obj, deepFreeze(structuredClone(obj))]) {
        expect(itemText(listItemJson(item, true))).toBe(JSON.stringify(withoutTypeMeta(item)));
        expect(itemText(listItemJson(item, false))).toBe(JSON.stringify(item));
        // Asked twice: the second answer comes from what was kept.
        expect(itemText(listItemJson(item, true))).toBe(JSON.stringify(withoutTypeMeta(item)));
      }
    });
  }
});
