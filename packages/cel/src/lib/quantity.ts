// kube's quantity library (library/quantity.go): quantity(), isQuantity() and Quantity's methods, exact as
// resource.Quantity computes them.
import { celFunc, celMethod, CelScalar, type CelFunc, type CelValue } from '@bufbuild/cel';
import { formatQuantity, parseQuantity, type ParsedQuantity, type QuantityDecimal } from '@kapi/apimachinery';
import { QUANTITY } from '../opaque.js';

const { STRING, BOOL, INT, DOUBLE } = CelScalar;
const Q = QUANTITY.celType;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

const read = (v: CelValue): ParsedQuantity => parseQuantity(QUANTITY.text(v));
const make = (value: QuantityDecimal, format: ParsedQuantity['format']) => QUANTITY.make(formatQuantity(value, format));

/** Both values scaled to the smaller exponent. */
function align(a: QuantityDecimal, b: QuantityDecimal): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.n * 10n ** BigInt(a.e - e), b.n * 10n ** BigInt(b.e - e), e];
}

function compare(a: QuantityDecimal, b: QuantityDecimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function add(q: ParsedQuantity, other: QuantityDecimal, sign: bigint) {
  const [x, y, e] = align(q.value, other);
  return make({ n: x + sign * y, e }, q.format);
}

/** The value as an int64, or undefined when it has a fraction or does not fit. */
function asInt64(v: QuantityDecimal): bigint | undefined {
  let n: bigint;
  if (v.e >= 0) n = v.n * 10n ** BigInt(v.e);
  else {
    const d = 10n ** BigInt(-v.e);
    if (v.n % d !== 0n) return undefined;
    n = v.n / d;
  }
  return n > INT64_MAX || n < INT64_MIN ? undefined : n;
}

const isQuantity = (s: string): boolean => {
  try {
    parseQuantity(s);
    return true;
  } catch {
    return false;
  }
};

/** The quantity library. */
export const quantityLibrary: CelFunc[] = [
  celFunc('quantity', [STRING], Q, (s) => {
    const q = parseQuantity(s);
    return make(q.value, q.format);
  }),
  celFunc('isQuantity', [STRING], BOOL, isQuantity),
  celMethod('sign', Q, [], INT, function () {
    const n = read(this).value.n;
    return n > 0n ? 1n : n < 0n ? -1n : 0n;
  }),
  celMethod('isInteger', Q, [], BOOL, function () {
    return asInt64(read(this).value) !== undefined;
  }),
  celMethod('asInteger', Q, [], INT, function () {
    const n = asInt64(read(this).value);
    if (n === undefined) throw new Error('cannot convert value to integer');
    return n;
  }),
  celMethod('asApproximateFloat', Q, [], DOUBLE, function () {
    const { n, e } = read(this).value;
    return Number(`${n}e${e}`);
  }),
  celMethod('add', Q, [Q], Q, function (o) {
    return add(read(this), read(o).value, 1n);
  }),
  celMethod('add', Q, [INT], Q, function (i) {
    return add(read(this), { n: i, e: 0 }, 1n);
  }),
  celMethod('sub', Q, [Q], Q, function (o) {
    return add(read(this), read(o).value, -1n);
  }),
  celMethod('sub', Q, [INT], Q, function (i) {
    return add(read(this), { n: i, e: 0 }, -1n);
  }),
  celMethod('isGreaterThan', Q, [Q], BOOL, function (o) {
    return compare(read(this).value, read(o).value) > 0;
  }),
  celMethod('isLessThan', Q, [Q], BOOL, function (o) {
    return compare(read(this).value, read(o).value) < 0;
  }),
  celMethod('compareTo', Q, [Q], INT, function (o) {
    return BigInt(compare(read(this).value, read(o).value));
  }),
];
