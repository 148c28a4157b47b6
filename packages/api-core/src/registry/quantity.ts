import { formatQuantity, parseQuantity } from '@kapi/apimachinery';

/**
 * Quantity.Cmp: -1, 0 or 1 as `a` is less than, equal to or more than `b`; an absent quantity is zero, as Go's zero
 * Quantity is. (Stored quantities have been validated: a string that does not parse counts as zero.)
 */
export function compareQuantities(a: unknown, b: unknown): number {
  const [l, r] = aligned(decimal(a), decimal(b));
  return l === r ? 0 : l < r ? -1 : 1;
}

/** An exact decimal: n × 10^e. */
export type Decimal = { n: bigint; e: number };

/** Two decimals' coefficients at their smaller exponent (which `exponent` is), so they compare and add as integers. */
function aligned(a: Decimal, b: Decimal): [bigint, bigint, exponent: number] {
  const e = Math.min(a.e, b.e);
  return [a.n * 10n ** BigInt(a.e - e), b.n * 10n ** BigInt(b.e - e), e];
}

/** A quantity as an exact decimal (n × 10^e); one that is absent or does not parse is zero. */
export function decimal(q: unknown): Decimal {
  if (typeof q !== 'string' && typeof q !== 'number') return { n: 0n, e: 0 };
  try {
    return parseQuantity(String(q)).value;
  } catch {
    return { n: 0n, e: 0 };
  }
}

/** A quantity as a float (for kube's ratio checks, which compare float64 milli-values). */
export function toNumber(q: unknown): number {
  const { n, e } = decimal(q);
  return Number(n) * 10 ** e;
}

/** Whether a quantity is a whole number (kube's integer resources; one that does not parse counts as zero). */
export function isWholeQuantity(q: unknown): boolean {
  const { n, e } = decimal(q);
  return e >= 0 || n % 10n ** BigInt(-e) === 0n;
}

/** The exact sum of two decimals. */
export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const [l, r, e] = aligned(a, b);
  return { n: l + r, e };
}

/** Whether two decimals are the same number. */
export function sameDecimal(a: Decimal, b: Decimal): boolean {
  const [l, r] = aligned(a, b);
  return l === r;
}

/**
 * Quantity.RoundUp(0) of a stored quantity: a fraction rounded up to the next whole unit in the quantity's own
 * format (`1500m` → `2`); a whole one, or one that does not parse, unchanged.
 */
export function roundUpWhole(q: string): string {
  let parsed;
  try {
    parsed = parseQuantity(q);
  } catch {
    return q;
  }
  const { n, e } = parsed.value;
  if (e >= 0 || n % 10n ** BigInt(-e) === 0n) return q;
  const unit = 10n ** BigInt(-e);
  const whole = n / unit + (n > 0n ? 1n : 0n);
  return formatQuantity({ n: whole, e: 0 }, parsed.format);
}
