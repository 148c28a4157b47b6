const cache = new WeakMap<object, string>();

/**
 * JSON of an object. For a frozen object (a version shared by the watch cache) the text is kept with it when
 * `remember` is set — watch events, which the cache's history holds anyway — and reused by every later response
 * that carries the same version (DESIGN.md convention 4). Lists and gets reuse it but do not add to it, so serving
 * a large collection never keeps a second copy of it in memory.
 */
export function jsonOf(value: unknown, remember = false): string {
  if (!value || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = cache.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (remember) cache.set(value, json);
  }
  return json;
}

/** A list's JSON with each item's kept JSON spliced in (items last, as the list's own key order has them). */
export function listJson(list: { items: unknown[] }): string {
  const { items, ...envelope } = list;
  const head = JSON.stringify(envelope);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"items":[${items.map((item) => jsonOf(item)).join(',')}]}`;
}
