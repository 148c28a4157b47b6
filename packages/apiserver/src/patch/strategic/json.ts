export type JsonMap = Record<string, unknown>;

export function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `key` is present; a JSON null counts as present, as it does for a decoded Go map. */
export function hasKey(map: JsonMap, key: string): boolean {
  return Object.hasOwn(map, key) && map[key] !== undefined;
}

/** Sets an own property, even for a key such as `__proto__` that plain assignment would treat as the prototype. */
export function setKey(map: JsonMap, key: string, value: unknown): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Reads an own property only, so a patch key such as `__proto__` can never reach `Object.prototype`. */
export function getKey(map: JsonMap, key: string): unknown {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}
