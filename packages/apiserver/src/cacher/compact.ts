/**
 * Cached objects held compactly (issue 16's memory bound). The watch cache keeps every object of every collection
 * decoded and frozen, so parts that are equal across objects can be one value shared by all of them:
 * - every empty object and empty array is one frozen `{}` and `[]` (managedFields' `fieldsV1` trees are mostly
 *   empty leaves: `"f:name": {}`);
 * - a `fieldsV1` tree equal to one seen recently is that tree (objects written by the same manager own the same
 *   fields);
 * - strings of medium length (timestamps, which JSON.parse does not share) equal to one seen recently are that
 *   string. V8 already shares JSON.parse's short strings (up to 10 characters) and every key.
 * Sharing is safe because everything is frozen: nobody can change a shared value through one object. The tables
 * are bounded (cleared when full), so they never hold on to what the cache forgot for long.
 */

const EMPTY_OBJECT = Object.freeze({});
const EMPTY_ARRAY = Object.freeze([]) as unknown as unknown[];

/** Entries a table holds before it starts over. */
const TABLE_SIZE = 4096;
/** Strings of these lengths are shared: longer than V8's own sharing, shorter than anything likely unique (uids: 36). */
const MIN_SHARED = 11;
const MAX_SHARED = 32;
/** fieldsV1 trees whose JSON is longer than this are not looked up (their JSON would cost more than it saves). */
const MAX_TREE_JSON = 4096;

const strings = new Map<string, string>();
const trees = new Map<string, object>();

/** The value in `table` under `key`, or `value` (then kept there). */
function shared<T>(table: Map<string, T>, key: string, value: T): T {
  const known = table.get(key);
  if (known !== undefined) return known;
  if (table.size >= TABLE_SIZE) table.clear();
  table.set(key, value);
  return value;
}

/** Whether a string is one compactTree shares. */
const sharable = (s: string) => s.length >= MIN_SHARED && s.length <= MAX_SHARED;

/**
 * Whether `compacted` must be stored in place of `value`: it is another object, or a shared string (equal strings
 * compare equal, so a shared one is stored whatever the comparison says).
 */
const replaces = (value: unknown, compacted: unknown) => compacted !== value || (typeof value === 'string' && sharable(value));

/**
 * Freezes `value` and everything in it, replacing the values inside it by equal shared ones where it can (see the
 * module's comment). Returns what to hold: `value` itself, or a shared empty object or array. Already frozen values
 * are taken as they are (they are shared, or compacted before).
 */
export function compactTree(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return sharable(value) ? shared(strings, value, value) : value;
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    if (!value.length) return EMPTY_ARRAY;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const c = compactTree(v);
      if (replaces(v, c)) value[i] = c;
    }
    return Object.freeze(value);
  }
  const record = value as Record<string, unknown>;
  let empty = true;
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue;
    empty = false;
    const v = record[k];
    const c = compactTree(v, k);
    if (!replaces(v, c)) continue;
    // `__proto__` as an own key (JSON.parse makes one) cannot be assigned: that would set the prototype.
    if (k === '__proto__') Object.defineProperty(record, k, { value: c, enumerable: true, writable: true, configurable: true });
    else record[k] = c;
  }
  if (empty && Object.getPrototypeOf(record) === Object.prototype) return EMPTY_OBJECT;
  Object.freeze(record);
  if (key === 'fieldsV1') {
    const json = JSON.stringify(record);
    if (json.length <= MAX_TREE_JSON) return shared(trees, json, record);
  }
  return record;
}
