// Objects decoded from requests are data: a key such as `__proto__`, `constructor` or `toString` is a key like any
// other, never JavaScript object machinery. Reads see only own properties, and writes of `__proto__` define a
// property instead of replacing the prototype.

/** The value of an own property, undefined when the object has none by that name (inherited ones don't count). */
export function getOwn(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === 'object' && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Sets an own, enumerable property (for `__proto__` too, which plain assignment would turn into a prototype change). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * A deep copy of a decoded JSON value (plain objects, arrays, strings, numbers, booleans, null), every own key kept
 * as an own key (`__proto__` too): what structuredClone gives for such a value, several times faster. Anything else
 * in it (a Date, a Map, a typed array, a class instance) is copied by structuredClone.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as Record<string, unknown>)[key]));
  return out as T;
}

/**
 * A copy of a decoded JSON value without its `null` members, at every depth: kube treats an explicit null as an unset
 * field (Go's JSON decoding into typed objects, and structured-merge-diff's null in an apply configuration).
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) setOwn(out, k, dropNulls(v));
    return out;
  }
  return value;
}
