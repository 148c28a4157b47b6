import { describe, expect, it } from 'vitest';
import { cloneJson } from './own.js';

describe('cloneJson', () => {
  it('copies a decoded JSON value deeply, as structuredClone does', () => {
    const value = JSON.parse('{"a":{"b":[1,"x",null,true,{"c":[]}]},"__proto__":{"polluted":1},"constructor":"k","u":-0}');
    const copy = cloneJson(value);
    expect(copy).toEqual(structuredClone(value));
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.is(copy.u, -0)).toBe(true);
    copy.a.b[4].c.push(1);
    expect(value.a.b[4].c).toEqual([]);
  });

  it('copies frozen values into unfrozen ones, and what is not JSON as structuredClone does', () => {
    const frozen = Object.freeze({ a: Object.freeze([Object.freeze({ b: 1 })]) });
    const copy = cloneJson(frozen) as { a: { b: number }[] };
    copy.a[0].b = 2;
    expect(frozen.a[0].b).toBe(1);
    const when = new Date(0);
    const withDate = cloneJson({ when, kept: undefined });
    expect(withDate.when).toEqual(when);
    expect(withDate.when).not.toBe(when);
    expect(Object.hasOwn(withDate, 'kept')).toBe(true);
  });
});
