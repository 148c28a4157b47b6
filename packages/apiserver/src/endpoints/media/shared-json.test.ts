import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../cacher/cache-event.js';
import { jsonText } from './shared-json.js';

describe('jsonText', () => {
  it('encodes a watch cache object once and gives the same text while it is kept', () => {
    const obj = deepFreeze({ kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    const first = jsonText(obj);
    expect(first).toBe('{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}\n');
    expect(jsonText(obj)).toBe(first);
  });

  it('encodes anything that may change every time', () => {
    const obj: { data: Record<string, string> } = { data: { k: 'v' } };
    expect(jsonText(obj)).toBe('{"data":{"k":"v"}}\n');
    obj.data.k = 'w';
    expect(jsonText(obj)).toBe('{"data":{"k":"w"}}\n');
    // Frozen on the outside only: what it holds can still change, so nothing is kept either.
    const shallow = Object.freeze({ data: { k: 'v' } });
    expect(jsonText(shallow)).toBe('{"data":{"k":"v"}}\n');
    shallow.data.k = 'x';
    expect(jsonText(shallow)).toBe('{"data":{"k":"x"}}\n');
  });

  it('encodes many big objects right, more than it keeps', () => {
    const big = 'x'.repeat(200_000);
    const objects = Array.from({ length: 200 }, (_, i) => deepFreeze({ i, big }));
    for (const o of objects) expect(jsonText(o)).toBe(`{"i":${o.i},"big":"${big}"}\n`);
    for (const o of objects) expect(jsonText(o)).toBe(`{"i":${o.i},"big":"${big}"}\n`);
  });
});
