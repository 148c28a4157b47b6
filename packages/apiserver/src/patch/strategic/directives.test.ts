import type { FieldPatchMeta } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch, patchMetaLookup } from './apply.js';
import { StrategicMergePatchError } from './errors.js';

const meta = patchMetaLookup({
  items: { patchStrategy: 'merge', patchMergeKey: 'name' },
  'items.ports': { patchStrategy: 'merge', patchMergeKey: 'port' },
  'items.tags': { patchStrategy: 'merge' },
  tags: { patchStrategy: 'merge' },
  atomic: {},
  replaced: { patchStrategy: 'replace' },
  union: { patchStrategy: 'retainKeys' },
  keyless: { patchStrategy: 'merge' },
  broken: { patchStrategy: 'merge,replace' },
} satisfies Record<string, FieldPatchMeta>);

const apply = (original: Record<string, unknown>, patch: Record<string, unknown>) =>
  applyStrategicMergePatch(original, patch, meta);

function failure(original: Record<string, unknown>, patch: Record<string, unknown>): StrategicMergePatchError {
  try {
    apply(original, patch);
  } catch (error) {
    if (error instanceof StrategicMergePatchError) return error;
    throw error;
  }
  throw new Error('the patch applied');
}

describe('maps', () => {
  it('merges recursively and deletes keys set to null', () => {
    expect(apply({ a: { b: 1, c: 2 }, d: 3 }, { a: { c: null, e: 4 }, d: null, f: 5 })).toStrictEqual({
      a: { b: 1, e: 4 },
      f: 5,
    });
  });

  it('$patch: replace replaces the map, $patch: delete empties it (as upstream)', () => {
    expect(apply({ a: { b: 1, c: 2 } }, { a: { $patch: 'replace', c: 3 } })).toStrictEqual({ a: { c: 3 } });
    expect(apply({ a: { b: 1 } }, { a: { $patch: 'delete' } })).toStrictEqual({ a: {} });
    expect(apply({ a: 1 }, { $patch: 'delete' })).toStrictEqual({});
  });

  it('replaces a map field with patchStrategy replace, and a value whose JSON type changes', () => {
    expect(apply({ replaced: { a: 1, b: 2 } }, { replaced: { b: 3 } })).toStrictEqual({ replaced: { b: 3 } });
    expect(apply({ a: { b: 1 } }, { a: 'x' })).toStrictEqual({ a: 'x' });
    expect(apply({ a: 'x' }, { a: { b: 1, c: null } })).toStrictEqual({ a: { b: 1 } });
  });

  it('$retainKeys drops live keys not listed, even without the retainKeys strategy', () => {
    expect(apply({ union: { a: 1, b: 2, c: 3 } }, { union: { $retainKeys: ['a', 'd'], d: 4 } })).toStrictEqual({
      union: { a: 1, d: 4 },
    });
    expect(apply({ x: { a: 1, b: 2 } }, { x: { $retainKeys: ['b'] } })).toStrictEqual({ x: { b: 2 } });
  });

  it('rejects a malformed $retainKeys and unknown $patch values', () => {
    expect(failure({ union: {} }, { union: { $retainKeys: 'a' } })).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^invalid patch format of retainKeys/),
    });
    expect(failure({ union: { a: 1 } }, { union: { $retainKeys: ['a'], b: 1 } }).code).toBe(400);
    expect(failure({ a: {} }, { a: { $patch: 'merge', b: 1 } }).message).toBe(
      'unknown patch type: merge in map: map[$patch:merge b:1]',
    );
    expect(failure({}, { $patch: 'remove' }).message).toBe('unknown patch type: remove in map: map[$patch:remove]');
  });
});

describe('lists', () => {
  const live = () => ({
    items: [
      { name: 'a', v: 1, ports: [{ port: 80, protocol: 'TCP' }], tags: ['x'] },
      { name: 'b', v: 2 },
    ],
    tags: ['x', 'y'],
    atomic: [1, 2, 3],
  });

  it('merges maps by merge key, recursing into nested merge lists', () => {
    const result = apply(live(), {
      items: [{ name: 'a', v: 10, ports: [{ port: 443 }], tags: ['z', 'x'] }],
    });
    expect(result.items).toStrictEqual([
      { name: 'a', v: 10, ports: [{ port: 443 }, { port: 80, protocol: 'TCP' }], tags: ['z', 'x'] },
      { name: 'b', v: 2 },
    ]);
  });

  it('deletes elements with $patch: delete and replaces the list with $patch: replace', () => {
    expect(apply(live(), { items: [{ name: 'a', $patch: 'delete' }] }).items).toStrictEqual([{ name: 'b', v: 2 }]);
    expect(apply(live(), { items: [{ $patch: 'replace' }, { name: 'c', v: null, w: 3 }] }).items).toStrictEqual([
      { name: 'c', w: 3 },
    ]);
  });

  it('unites primitive merge lists without duplicates and removes with $deleteFromPrimitiveList', () => {
    expect(apply(live(), { tags: ['y', 'z', 'z'] }).tags).toStrictEqual(['x', 'y', 'z']);
    expect(apply(live(), { '$deleteFromPrimitiveList/tags': ['x', 'nope'] }).tags).toStrictEqual(['y']);
    // The deletion applies after the union sent in the same patch.
    expect(apply(live(), { tags: ['z'], '$deleteFromPrimitiveList/tags': ['z', 'x'] }).tags).toStrictEqual(['y']);
    expect(apply({}, { '$deleteFromPrimitiveList/tags': ['x'] })).toStrictEqual({});
  });

  it('replaces lists without merge strategy wholesale', () => {
    expect(apply(live(), { atomic: [3, 4] }).atomic).toStrictEqual([3, 4]);
    expect(apply({ other: [{ name: 'a', v: 1 }] }, { other: [{ name: 'a' }] })).toStrictEqual({ other: [{ name: 'a' }] });
  });

  it('$setElementOrder orders merge-keyed and primitive lists', () => {
    const result = apply(live(), {
      '$setElementOrder/items': [{ name: 'c' }, { name: 'b' }, { name: 'a' }],
      items: [{ name: 'c', v: 3 }],
      '$setElementOrder/tags': ['y', 'x'],
    });
    expect(result.items).toStrictEqual([{ name: 'c', v: 3 }, { name: 'b', v: 2 }, live().items[0]]);
    expect(result.tags).toStrictEqual(['y', 'x']);
  });

  it('interleaves server-only elements by their live position (before the listed item they preceded)', () => {
    const result = apply(
      { items: [{ name: 'a' }, { name: 'server' }, { name: 'b' }] },
      { '$setElementOrder/items': [{ name: 'b' }, { name: 'a' }] },
    );
    expect(result.items).toStrictEqual([{ name: 'server' }, { name: 'b' }, { name: 'a' }]);
  });

  it('rejects malformed list directives', () => {
    expect(failure(live(), { '$deleteFromPrimitiveListtags': ['x'] })).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^invalid patch format of primitive list/),
    });
    expect(failure(live(), { '$deleteFromPrimitiveList/tags': 'x' }).code).toBe(400);
    expect(failure(live(), { '$setElementOrder/tags': 'x' })).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^invalid patch format of setElementOrder list/),
    });
    expect(failure(live(), { '$setElementOrdertags': [] }).code).toBe(400);
    expect(failure(live(), { items: [{ $patch: 'merge', name: 'a' }] }).message).toBe(
      'merging lists cannot yet be specified in the patch',
    );
    expect(failure(live(), { items: [{ $patch: 'drop', name: 'a' }] }).message).toBe(
      'unknown patch type: drop in map: map[$patch:drop name:a]',
    );
    expect(failure(live(), { items: [{ $patch: 'delete' }] }).message).toBe(
      'map: map[$patch:delete] does not contain declared merge key: name',
    );
    expect(failure(live(), { items: [{ v: 1 }] }).message).toBe('map: map[v:1] does not contain declared merge key: name');
  });

  it('rejects lists of lists (422), mixed element types, map lists without merge key and bad strategies', () => {
    expect(failure({ tags: [['a']] }, { tags: [['b']] })).toMatchObject({
      code: 422,
      message: 'lists of lists are not supported',
    });
    expect(failure({ tags: ['a'] }, { tags: [1] }).message).toBe('list element types are not identical: [[a] [1]]');
    expect(failure({ keyless: [{ a: 1 }] }, { keyless: [{ a: 2 }] }).message).toBe(
      'cannot merge lists without merge key for keyless',
    );
    expect(failure({ broken: [1] }, { broken: [2] }).message).toBe('unexpected patch strategy: [merge replace]');
  });
});

describe('results', () => {
  it('never keep directives or nulls from content the live object lacks', () => {
    const result = apply(
      {},
      {
        items: [
          {
            name: 'a',
            '$setElementOrder/ports': [{ port: 1 }],
            ports: [{ port: 1, hostIP: null }, { port: 2, $patch: 'delete' }],
            '$deleteFromPrimitiveList/tags': ['x'],
            tags: ['x'],
          },
          { name: 'gone', $patch: 'delete' },
        ],
        union: { $retainKeys: ['a'], a: 1 },
        gone: { $patch: 'delete', a: 1 },
        kept: { $patch: 'replace', a: 1 },
      },
    );
    expect(result).toStrictEqual({
      items: [{ name: 'a', ports: [{ port: 1 }], tags: ['x'] }],
      union: { a: 1 },
      kept: { a: 1 },
    });
  });

  it('do not mutate or share the inputs', () => {
    const deepFreeze = <T>(value: T): T => {
      if (value && typeof value === 'object') {
        Object.values(value).forEach(deepFreeze);
        Object.freeze(value);
      }
      return value;
    };
    const original = deepFreeze({ items: [{ name: 'a', v: 1 }], tags: ['x'], m: { k: 'v' } });
    const patch = deepFreeze({
      items: [{ name: 'b', nested: { n: 1 } }],
      '$setElementOrder/items': [{ name: 'a' }, { name: 'b' }],
      tags: ['y'],
      m: { k2: { deep: true } },
      fresh: { list: [{ x: 1 }] },
    });
    const result = apply(original, patch) as any;
    expect(result).toStrictEqual({
      items: [{ name: 'a', v: 1 }, { name: 'b', nested: { n: 1 } }],
      tags: ['y', 'x'],
      m: { k: 'v', k2: { deep: true } },
      fresh: { list: [{ x: 1 }] },
    });
    expect(result.items[0]).not.toBe(original.items[0]);
    expect(result.items[1].nested).not.toBe(patch.items[0].nested);
    expect(result.m.k2).not.toBe(patch.m.k2);
    expect(result.fresh.list[0]).not.toBe(patch.fresh.list[0]);
  });

  it('rejects documents that are not JSON objects', () => {
    expect(() => applyStrategicMergePatch({}, [] as unknown as Record<string, unknown>, meta)).toThrow(
      'invalid JSON document',
    );
  });
});

describe('keys', () => {
  it('treats __proto__ as a plain field', () => {
    const result = apply({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}, "b": 2}'));
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toStrictEqual(['a', '__proto__', 'b']);
    expect((result as Record<string, unknown>).polluted).toBeUndefined();
  });
});
