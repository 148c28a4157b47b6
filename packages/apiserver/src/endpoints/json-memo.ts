const cache = new WeakMap<object, string>();

/**
 * JSON of an object, kept with it when it is frozen (the watch cache's shared object versions): each version is
 * serialized once, however many lists, gets and watch events carry it (DESIGN.md convention 4).
 */
export function jsonOf(value: unknown): string {
  if (!value || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = cache.get(value);
  if (json === undefined) cache.set(value, (json = JSON.stringify(value)));
  return json;
}

/** A list's JSON with each item's cached JSON spliced in (items last, as the list's own key order has them). */
export function listJson(list: { items: unknown[] }): string {
  const { items, ...envelope } = list;
  const head = JSON.stringify(envelope);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"items":[${items.map(jsonOf).join(',')}]}`;
}
