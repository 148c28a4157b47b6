import { describe, expect, it } from 'vitest';
import { addPreserved, applyPlan, collectPreserved, restorePreserved } from './plan.js';
import type { ConversionPlan } from './types.js';

const plan: ConversionPlan = {
  props: {
    name: 1,
    spec: { props: { size: 1, items: { items: { props: { id: 1 }, preserve: ['extra'] } } }, preserve: ['legacy'] },
    labels: { values: { props: { v: 1 }, preserve: ['old'] } },
  },
};

describe('applyPlan', () => {
  it('copies the fields the plan names, leaves out the others, and shares nothing with the input', () => {
    const input = Object.freeze({
      name: 'a',
      manual: 'x',
      spec: Object.freeze({ size: 2, legacy: true, items: Object.freeze([Object.freeze({ id: 1, extra: 'e' })]) }),
      labels: { k: { v: 1, old: 2 } },
    });
    const out = applyPlan(plan, input) as Record<string, any>;
    expect(out).toEqual({ name: 'a', spec: { size: 2, items: [{ id: 1 }] }, labels: { k: { v: 1 } } });
    expect(Object.isFrozen(out.spec)).toBe(false);
    out.spec.items[0].id = 9;
    expect(input.spec.items[0].id).toBe(1);
  });

  it('deep-copies whole values under a plan of 1', () => {
    const input = { nested: { list: [{ a: 1 }] } };
    const out = applyPlan(1, input) as typeof input;
    expect(out).toEqual(input);
    expect(out.nested).not.toBe(input.nested);
    expect(out.nested.list[0]).not.toBe(input.nested.list[0]);
  });

  it('copies a value of an unexpected type as it is', () => {
    expect(applyPlan({ items: 1 }, 'text')).toBe('text');
    expect(applyPlan({ props: {} }, [1, 2])).toEqual([1, 2]);
  });
});

describe('collectPreserved', () => {
  it('gathers preserved fields at any depth, list elements by index, map values by key', () => {
    const input = {
      name: 'a',
      spec: { legacy: 'L', items: [{ id: 1 }, { id: 2, extra: { deep: [1] } }] },
      labels: { k: { v: 1, old: 'o' }, j: { v: 2 } },
    };
    expect(collectPreserved(plan, input)).toEqual({
      spec: { legacy: 'L', items: { 1: { extra: { deep: [1] } } } },
      labels: { k: { old: 'o' } },
    });
  });

  it('answers undefined when nothing is preserved', () => {
    expect(collectPreserved(plan, { name: 'a', spec: { items: [{ id: 1 }] } })).toBeUndefined();
    expect(collectPreserved(1, { legacy: 1 })).toBeUndefined();
  });
});

describe('restorePreserved', () => {
  // The target version's plan: spec.items[] elements have `extra` without counterpart, spec has `legacy` (preserve)
  // and `renamed` (manual); metadata and status convert automatically.
  const target_plan: ConversionPlan = {
    props: { metadata: 1, status: 1, spec: { props: { items: { items: { props: { id: 1 }, preserve: ['extra'] } } }, preserve: ['legacy'], manual: ['renamed'] } },
  };

  it('restores fields, creating objects on the way, and list elements only where they still exist', () => {
    const target: Record<string, any> = { spec: { items: [{ id: 1 }] } };
    restorePreserved(target, { spec: { legacy: 'L', renamed: { a: 1 }, items: { 0: { extra: 'e0' }, 3: { extra: 'gone' } } } }, target_plan);
    expect(target).toEqual({ spec: { legacy: 'L', renamed: { a: 1 }, items: [{ id: 1, extra: 'e0' }] } });
  });

  it('does not share the preserved values with the target', () => {
    const preserved = { spec: { legacy: { list: [1] } } };
    const target: Record<string, any> = {};
    restorePreserved(target, preserved, target_plan);
    target.spec.legacy.list.push(2);
    expect(preserved.spec.legacy.list).toEqual([1]);
  });

  it('ignores indexes that are no list index', () => {
    const target: Record<string, any> = { spec: { items: [{ id: 1 }] } };
    restorePreserved(target, { spec: { items: { x: { extra: 1 }, '-1': { extra: 2 } } } }, target_plan);
    expect(target).toEqual({ spec: { items: [{ id: 1 }] } });
  });

  it('restores nothing a client could not write through validation: automatic fields, unknown fields, metadata, status', () => {
    const target: Record<string, any> = { metadata: { name: 'a' }, spec: { items: [{ id: 1 }] }, status: { ok: true } };
    const before = structuredClone(target);
    restorePreserved(target, {
      metadata: { finalizers: ['x'], uid: 'forged' },
      status: { ok: false, injected: 1 },
      spec: { items: { 0: { id: 99 } }, unknown: 'x' },
      extra: 1,
    }, target_plan);
    expect(target).toEqual(before);
  });

  it('never follows __proto__ (JSON.parse makes it an own key)', () => {
    const target: Record<string, any> = { spec: {} };
    const hostile = JSON.parse('{"__proto__":{"polluted":1},"spec":{"__proto__":{"polluted":2},"legacy":{"__proto__":{"polluted":3}}}}');
    restorePreserved(target, hostile, target_plan);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(target.spec)).toBe(Object.prototype);
    // A preserved value's own `__proto__` key is data (kube keeps any JSON key): kept as an own property, never
    // followed to the prototype.
    expect(Object.getPrototypeOf(target.spec.legacy)).toBe(Object.prototype);
    expect(Object.keys(target.spec.legacy)).toEqual(['__proto__']);
    expect(JSON.stringify(target.spec.legacy)).toBe('{"__proto__":{"polluted":3}}');
    expect(Object.hasOwn(target.spec, '__proto__')).toBe(false);
  });

  it('keeps `__proto__` map keys and preserved values through a round trip, as own data', () => {
    const value = JSON.parse('{"labels":{"__proto__":"x","a":"b"}}');
    const out = applyPlan({ props: { labels: { values: 1 } } }, value) as Record<string, any>;
    expect(JSON.stringify(out)).toBe('{"labels":{"__proto__":"x","a":"b"}}');
    expect(Object.getPrototypeOf(out.labels)).toBe(Object.prototype);
  });
});

describe('addPreserved', () => {
  it('sets a value at a path of a partial object, creating objects on the way', () => {
    const into = { spec: { a: 1 } };
    addPreserved(into, ['spec', 'list', 2, 'b'], { c: 1 });
    expect(into).toEqual({ spec: { a: 1, list: { 2: { b: { c: 1 } } } } });
  });
});
