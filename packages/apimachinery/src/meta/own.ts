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
