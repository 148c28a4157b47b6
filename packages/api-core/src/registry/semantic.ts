import { isDeepStrictEqual } from 'node:util';
import { isObj, type Obj } from '@kapi/apimachinery';

/** A value without what Go's semantic equality takes for absent: undefined and null members, empty lists. */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(normalized) : undefined;
  if (!isObj(v)) return v ?? undefined;
  const out: Obj = {};
  for (const [key, value] of Object.entries(v)) {
    const n = normalized(value);
    if (n !== undefined) out[key] = n;
  }
  return out;
}

/**
 * Whether two values are equal as kube's apiequality.Semantic compares specs: whatever the key order, with an empty
 * list the same as none.
 */
export const semanticallyEqual = (a: unknown, b: unknown): boolean => isDeepStrictEqual(normalized(a), normalized(b));
