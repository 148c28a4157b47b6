import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual, specChanged } from './diff.js';

/** The comparison spelled out: the defined keys of both, then each value. */
function reference(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => reference(v, (b as unknown[])[i]));
  const defined = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined);
  const x = defined(a);
  const y = new Map(defined(b));
  return x.length === y.size && x.every(([k, v]) => y.has(k) && reference(v, y.get(k)));
}

/** JSON-like values with undefined members, small enough that two of them are often equal. */
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { maxDepth: 3 },
    fc.constantFrom(null, 0, 1, 'a', true, undefined),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'constructor', '__proto__'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** The same value with every object's keys in reverse order. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).reverse()) Object.defineProperty(out, k, { value: reversed((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

describe('jsonEqual', () => {
  it('is structural equality of JSON values whatever the key order, an undefined member counting as absent', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(jsonEqual(a, b)).toBe(reference(a, b));
        expect(jsonEqual(a, reversed(a))).toBe(true);
        expect(jsonEqual(reversed(b), a)).toBe(reference(b, a));
      }),
      { numRuns: 3_000 },
    );
  });

  it('tells objects that differ in one member apart, in either order', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":1}'), {})).toBe(false);
    // An own `__proto__` or `constructor` member is data, compared with the other object's own member only.
    expect(jsonEqual(JSON.parse('{"__proto__":{}}'), { x: 1 })).toBe(false);
    expect(jsonEqual({ constructor: {} }, { x: 1 })).toBe(false);
  });

  it('counts a change of anything but metadata and status as a spec change', () => {
    const old = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: { n: 1 }, status: { s: 1 } };
    expect(specChanged({ ...old, metadata: { name: 'a', labels: { x: 'y' } }, status: { s: 2 } }, old)).toBe(false);
    expect(specChanged({ ...old, spec: { n: 2 } }, old)).toBe(true);
    expect(specChanged({ ...old, status: { s: 2 } }, old, false)).toBe(true);
  });
});
