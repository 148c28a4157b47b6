// JSON helpers: Go's decoding of absent and null alike, and apiequality.Semantic.DeepEqual over CRD parts.

/** A value Go would decode into a non-nil pointer or non-zero field: neither undefined nor null. */
export const has = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** A JSON object (not an array). */
export const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Plain JSON deep equality (reflect.DeepEqual of decoded JSON values). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** A deep copy of a JSON value. */
export const jsonClone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

// Fields Go holds as non-pointer scalars: their zero value is the same as absent.
const ZERO_IS_ABSENT = new Set([
  'id', '$schema', 'description', 'type', 'format', 'title', 'exclusiveMaximum', 'exclusiveMinimum', 'pattern',
  'uniqueItems', 'nullable', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'rule', 'message', 'messageExpression', 'fieldPath',
  'name', 'jsonPath', 'priority', 'specReplicasPath', 'statusReplicasPath', 'served', 'storage', 'deprecated',
]);
// Fields Go holds as maps keyed by user names: their entries are schemas.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
// Fields holding arbitrary JSON: compared as is.
const RAW = new Set(['default', 'example']);

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || x === null) continue;
    if (ZERO_IS_ABSENT.has(k) && (x === false || x === '' || x === 0)) continue;
    if (Array.isArray(x) && x.length === 0) continue; // Semantic.DeepEqual: empty and nil slices are equal
    if (RAW.has(k) || k === 'enum') {
      out[k] = x;
    } else if (SCHEMA_MAPS.has(k) && isObject(x)) {
      if (Object.keys(x).length === 0) continue; // empty and nil maps are equal
      out[k] = Object.fromEntries(Object.entries(x).map(([name, s]) => [name, canonical(s)]));
    } else {
      out[k] = canonical(x);
    }
  }
  return out;
}

/**
 * kube's apiequality.Semantic.DeepEqual of two decoded CRD parts: absent, null and Go zero values of non-pointer
 * fields are equal, as are empty and absent lists and maps.
 */
export const semanticEqual = (a: unknown, b: unknown): boolean => jsonEqual(canonical(a), canonical(b));
