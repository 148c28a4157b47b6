// CEL's optional library functions (optional.of, optional.none, hasValue, value, or, orValue). The `?.` and `[?`
// syntax needs the parser and is not available (see README).
import { celFunc, celMethod, CelScalar, isCelList, isCelMap, type CelFunc, type CelValue } from '@bufbuild/cel';
import { Optional } from '../opaque.js';

const { DYN, BOOL } = CelScalar;
const OPT = Optional.celType;

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelList(v) || isCelMap(v)) return v.size === 0;
  return false;
}

/** The optional library. */
export const optionalLibrary: CelFunc[] = [
  celFunc('optional.of', [DYN], OPT, (v) => Optional.of(v)),
  celFunc('optional.ofNonZeroValue', [DYN], OPT, (v) => (isZero(v) ? Optional.none() : Optional.of(v))),
  celFunc('optional.none', [], OPT, () => Optional.none()),
  celMethod('hasValue', OPT, [], BOOL, function () {
    return Optional.value(this) !== undefined;
  }),
  celMethod('value', OPT, [], DYN, function () {
    const v = Optional.value(this);
    if (v === undefined) throw new Error('optional.none() dereference');
    return v as never;
  }),
  celMethod('or', OPT, [OPT], OPT, function (other) {
    return Optional.value(this) !== undefined ? this : other;
  }),
  celMethod('orValue', OPT, [DYN], DYN, function (v) {
    return (Optional.value(this) ?? v) as never;
  }),
];
