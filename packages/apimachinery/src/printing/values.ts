// Reading untyped kube objects the way kube's table printers read typed ones: a missing field is Go's zero value.

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a dotted path, undefined when any step is missing. */
export const at = (v: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((cur, key) => (isObj(cur) ? cur[key] : undefined), v);

/** The value itself when it is an object, `{}` otherwise (Go's zero struct). */
export const asObj = (v: unknown): Obj => (isObj(v) ? v : {});

/** Each item of a list as an object (`{}` for one that is not), `[]` when the value is not a list. */
export const asObjects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asObj) : []);

/** The object at a dotted path, `{}` when missing or not an object. */
export const objAt = (v: unknown, path: string): Obj => asObj(at(v, path));

/** The array at a dotted path, `[]` when missing or not an array. */
export const listAt = (v: unknown, path: string): unknown[] => {
  const found = at(v, path);
  return Array.isArray(found) ? found : [];
};

/** A string, `''` for anything else (Go's zero string). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** An integer, `fallback` (0) for anything else. */
export const int = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback);

/** The number of distinct keys in the given maps. */
export const keyCount = (...maps: unknown[]): number => new Set(maps.flatMap((m) => (isObj(m) ? Object.keys(m) : []))).size;

/** `<none>` for an empty string. */
export const orNone = (s: string): string => s || '<none>';

export const sortedUnique = (items: string[]): string[] => [...new Set(items)].sort();

/** An IntOrString as its String(), `N/A` when unset (PodDisruptionBudget's min/max). */
export const intOrString = (v: unknown): string => (typeof v === 'number' ? String(Math.trunc(v)) : typeof v === 'string' ? v : 'N/A');

/** A reader of the value at a dotted path as text (kube's field-selector labels: `true`, `Running`), '' when absent. */
export const textAt =
  (path: string) =>
  (obj: unknown): string => {
    const v = at(obj, path);
    return v === undefined || v === null ? '' : String(v);
  };
