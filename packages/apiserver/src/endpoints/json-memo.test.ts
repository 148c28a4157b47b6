import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../cacher/cache-event.js';
import { jsonOf, listJson } from './json-memo.js';

describe('JSON kept with cached objects', () => {
  it('writes lists byte for byte as JSON.stringify does', () => {
    const items = [deepFreeze({ metadata: { name: 'a' }, data: { k: 'v"\n' } }), { metadata: { name: 'b' } }];
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7' }, items };
    expect(listJson(list)).toBe(JSON.stringify(list));
    expect(listJson({ items: [] })).toBe(JSON.stringify({ items: [] }));
    expect(listJson({ ...list, items: [] })).toBe(JSON.stringify({ ...list, items: [] }));
  });

  it('keeps the text of a frozen object when asked to, and never of one that can change', () => {
    const obj = deepFreeze({ metadata: { name: 'a' } });
    expect(jsonOf(obj, true)).toBe('{"metadata":{"name":"a"}}');
    expect(jsonOf(obj)).toBe('{"metadata":{"name":"a"}}');
    const loose = { n: 1 };
    expect(jsonOf(loose, true)).toBe('{"n":1}');
    loose.n = 2;
    expect(jsonOf(loose, true)).toBe('{"n":2}');
  });
});
