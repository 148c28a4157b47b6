// JSON values to CEL without a schema, as kube's admission expressions see objects, params and the request
// (UnstructuredToVal with no schema): integral numbers are ints, other numbers doubles, strings stay strings
// (timestamps included), objects are maps, nulls are null.
import { isCelList, isCelMap, type CelInput } from '@bufbuild/cel';

/** `value` (decoded JSON) as a CEL value; undefined and functions become null. */
export function toCelValue(value: unknown, seen = new WeakMap<object, CelInput>()): CelInput {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'number':
      return Number.isInteger(value) ? BigInt(value) : value;
    case 'object': {
      if (value === null) return null;
      if (value instanceof Uint8Array) return value;
      const hit = seen.get(value);
      if (hit !== undefined) return hit;
      let out: CelInput;
      if (Array.isArray(value)) out = value.map((v) => toCelValue(v, seen));
      else {
        const m = new Map<string, CelInput>();
        for (const [k, v] of Object.entries(value)) if (v !== undefined) m.set(k, toCelValue(v, seen));
        out = m;
      }
      seen.set(value, out);
      return out;
    }
    default:
      return null;
  }
}

/** A CEL result as plain JS: bools, strings, numbers (ints as bigint), null, arrays and objects. */
export function fromCelValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (isCelList(value)) return [...value].map(fromCelValue);
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = fromCelValue(v);
    return out;
  }
  return value;
}
