// resource.Quantity as kube parses and writes it (k8s.io/apimachinery/pkg/api/resource): the canonical form of
// `1024Mi` is `1Gi`, of `0.5` is `500m`, of `1.5k` is `1500`.

const PATTERN = "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** kube's error for a string that is not a quantity. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression ${PATTERN}`;

/** How a quantity is written: `1k` (DecimalSI), `1Ki` (BinarySI) or `1e3` (DecimalExponent). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
type Format = QuantityFormat;

const DECIMAL_SI: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SI: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_SUFFIX = Object.fromEntries(Object.entries(DECIMAL_SI).map(([s, e]) => [e, s])) as Record<number, string>;
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const MAX = (1n << 63n) - 1n;
const NANO = -9;

const pow10 = (n: number) => 10n ** BigInt(n);
const abs = (n: bigint) => (n < 0n ? -n : n);

/** An exact decimal: value = n × 10^e */
export interface Decimal {
  n: bigint;
  e: number;
}

/** |a| compared with the integer `b`. */
function compareAbs(a: Decimal, b: bigint): number {
  const left = a.e >= 0 ? abs(a.n) * pow10(a.e) : abs(a.n);
  const right = a.e >= 0 ? b : b * pow10(-a.e);
  return left === right ? 0 : left < right ? -1 : 1;
}

function parse(text: string): ParsedQuantity {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([a-zA-Z]*)([-+]?\d*)$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new Error(QUANTITY_FORMAT_ERROR);
  const [, sign, whole, fraction = '', letters, exponentDigits] = m;
  let value: Decimal = { n: BigInt(`${whole}${fraction}` || '0') * (sign === '-' ? -1n : 1n), e: -fraction.length };
  let format: Format;
  if ((letters === 'e' || letters === 'E') && /^[-+]?\d+$/.test(exponentDigits)) {
    format = 'DecimalExponent';
    value = { n: value.n, e: value.e + Number(exponentDigits) };
  } else if (exponentDigits !== '') {
    throw new Error(QUANTITY_FORMAT_ERROR);
  } else if (Object.hasOwn(BINARY_SI, letters)) {
    format = 'BinarySI';
    value = { n: value.n << BigInt(10 * BINARY_SI[letters]), e: value.e };
  } else if (Object.hasOwn(DECIMAL_SI, letters)) {
    format = 'DecimalSI';
    value = { n: value.n, e: value.e + DECIMAL_SI[letters] };
  } else {
    throw new Error('unable to parse quantity\'s suffix');
  }
  // Rounded up (away from zero) to whole nanos, then capped at the int64 maximum, as ParseQuantity does.
  if (value.e < NANO) {
    const d = pow10(NANO - value.e);
    let q = value.n / d;
    if (value.n % d !== 0n) q += value.n < 0n ? -1n : 1n;
    value = { n: q, e: NANO };
  }
  if (compareAbs(value, MAX) > 0) value = { n: value.n < 0n ? -MAX : MAX, e: 0 };
  if (format === 'BinarySI' && value.n !== 0n && compareAbs(value, 1n) < 0) format = 'DecimalSI';
  return { value, format };
}

/** Quantity.String(): mantissa and suffix of the canonical form. */
function canonical({ n, e }: Decimal, format: Format): string {
  if (n === 0n) return '0';
  if (format === 'BinarySI') {
    const integral = e >= 0 || n % pow10(-e) === 0n;
    if (compareAbs({ n, e }, 1024n) < 0 || !integral) format = 'DecimalSI';
    else {
      let v = e >= 0 ? n * pow10(e) : n / pow10(-e);
      let exponent = 0;
      while (v % 1024n === 0n && exponent < 6) {
        v /= 1024n;
        exponent++;
      }
      return `${v}${BINARY_SUFFIXES[exponent]}`;
    }
  }
  while (n % 10n === 0n) {
    n /= 10n;
    e++;
  }
  const down = ((e % 3) + 3) % 3;
  n *= pow10(down);
  e -= down;
  if (format === 'DecimalExponent') return e === 0 ? `${n}` : `${n}e${e}`;
  return `${n}${DECIMAL_SUFFIX[e]}`;
}

/**
 * A quantity (a string, or a JSON number as Go's Quantity takes one) in kube's canonical form. Throws an Error
 * with kube's message when it is not a quantity.
 */
export function canonicalQuantity(input: string | number): string {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim();
  if (text === '') throw new Error(QUANTITY_FORMAT_ERROR);
  const { value, format } = parse(text);
  return canonical(value, format);
}

/** A parsed quantity: its exact value (rounded up to nanos and capped at the int64 maximum, as kube does) and format. */
export interface ParsedQuantity {
  value: Decimal;
  format: QuantityFormat;
}

/** Parses a quantity string as resource.ParseQuantity; throws an Error with kube's message when it is not one. */
export function parseQuantity(input: string): ParsedQuantity {
  const text = input.trim();
  if (text === '') throw new Error(QUANTITY_FORMAT_ERROR);
  return parse(text);
}

/** The canonical text of a quantity value in a format, as Quantity.String() writes it. */
export function formatQuantity(value: Decimal, format: QuantityFormat): string {
  return canonical(value, format);
}
