// Go's encoding/json as kube's conversion uses it for the HorizontalPodAutoscaler round-trip annotations: the bytes
// json.Marshal writes, and json.Unmarshal's reading of them into Go structs (case-insensitive field names, null a
// no-op on values, any type mismatch an error).
import { canonicalQuantity, canonicalTime, goJSONEscape, isObj } from '@kapi/apimachinery';

/** json.Marshal's text of a value whose keys are already in Go's order: `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export const goMarshal = (value: unknown): string => goJSONEscape(JSON.stringify(value));

/** json.Unmarshal failed (the annotation is not well-formed for its Go type). */
export class GoDecodeError extends Error {}

/** Reads a JSON value as a Go type; throws GoDecodeError where json.Unmarshal returns an error. */
export type Decoder<T = unknown> = (value: unknown) => T;

const fail = (what: string): never => {
  throw new GoDecodeError(what);
};

export const goString: Decoder<string> = (v) => (v === null ? '' : typeof v === 'string' ? v : fail('string'));

export const goInt: (bits: 32 | 64) => Decoder<number> = (bits) => (v) => {
  if (v === null) return 0;
  const limit = bits === 32 ? 2 ** 31 : 2 ** 63;
  return typeof v === 'number' && Number.isInteger(v) && v >= -limit && v < limit ? v : fail(`int${bits}`);
};

/** resource.Quantity: a string or number it parses, in its canonical form; null is the zero Quantity. */
export const goQuantity: Decoder<string> = (v) => {
  if (v === null) return '0';
  if (typeof v !== 'string' && typeof v !== 'number') return fail('quantity');
  try {
    return canonicalQuantity(v);
  } catch {
    return fail('quantity');
  }
};

/** metav1.Time: RFC 3339 text, canonical; null is the zero time (undefined here: absent from kapi's objects). */
export const goTime: Decoder<string | undefined> = (v) => {
  if (v === null) return undefined;
  if (typeof v !== 'string') return fail('time');
  try {
    return canonicalTime(v, 'Time');
  } catch {
    return fail('time');
  }
};

/** map[string]string (nil for null). */
export const goStringMap: Decoder<Record<string, string> | undefined> = (v) => {
  if (v === null) return undefined;
  if (!isObj(v)) return fail('map');
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) out[k] = goString(value);
  return out;
};

/** A slice (nil, here undefined, for null). */
export const goSlice =
  <T>(element: Decoder<T>): Decoder<T[] | undefined> =>
  (v) =>
    v === null ? undefined : Array.isArray(v) ? v.map(element) : fail('slice');

/** A struct field: its decoder, and whether it is a pointer (null makes it nil rather than leaving it alone). */
export interface GoField {
  decode: Decoder;
  pointer?: boolean;
  /** The zero value of a non-pointer field. */
  zero?: unknown;
}

/**
 * A struct, as an object keyed by its fields' JSON names (nil pointers absent): each key of the JSON object picks the
 * field of that name, exactly or else case-insensitively, and unknown keys are ignored; null is the zero struct.
 */
export function goStruct(fields: Record<string, GoField>): Decoder<Record<string, unknown>> {
  const folded = new Map(Object.keys(fields).map((name) => [name.toLowerCase(), name]));
  return (v) => {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(fields)) if (!field.pointer && field.zero !== undefined) out[name] = field.zero;
    if (v === null) return out;
    if (!isObj(v)) return fail('struct');
    for (const [key, value] of Object.entries(v)) {
      const name = Object.hasOwn(fields, key) ? key : folded.get(key.toLowerCase());
      if (name === undefined) continue;
      const field = fields[name]!;
      if (value === null) {
        // null sets a pointer to nil and leaves any other value as it is
        if (field.pointer) delete out[name];
        continue;
      }
      const decoded = field.decode(value);
      if (decoded === undefined) delete out[name];
      else out[name] = decoded;
    }
    return out;
  };
}

/** Parses annotation text and decodes it; undefined when json.Unmarshal would fail. */
export function goUnmarshal<T>(text: string, decode: Decoder<T>): { value: T } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    return { value: decode(parsed) };
  } catch (err) {
    if (err instanceof GoDecodeError) return undefined;
    throw err;
  }
}
