import { parseQuantity } from '@kapi/apimachinery';

/**
 * Quantity.Cmp: -1, 0 or 1 as `a` is less than, equal to or more than `b`; an absent quantity is zero, as Go's zero
 * Quantity is. (Stored quantities have been validated: a string that does not parse counts as zero.)
 */
export function compareQuantities(a: unknown, b: unknown): number {
  const [x, y] = [decimal(a), decimal(b)];
  const e = Math.min(x.e, y.e);
  const [l, r] = [x.n * 10n ** BigInt(x.e - e), y.n * 10n ** BigInt(y.e - e)];
  return l === r ? 0 : l < r ? -1 : 1;
}

/** A quantity as an exact decimal (n × 10^e); one that is absent or does not parse is zero. */
export function decimal(q: unknown): { n: bigint; e: number } {
  if (typeof q !== 'string' && typeof q !== 'number') return { n: 0n, e: 0 };
  try {
    return parseQuantity(String(q)).value;
  } catch {
    return { n: 0n, e: 0 };
  }
}

/** The exact sum of two decimals. */
export function addDecimals(a: { n: bigint; e: number }, b: { n: bigint; e: number }): { n: bigint; e: number } {
  const e = Math.min(a.e, b.e);
  return { n: a.n * 10n ** BigInt(a.e - e) + b.n * 10n ** BigInt(b.e - e), e };
}

/** Whether two decimals are the same number. */
export function sameDecimal(a: { n: bigint; e: number }, b: { n: bigint; e: number }): boolean {
  const e = Math.min(a.e, b.e);
  return a.n * 10n ** BigInt(a.e - e) === b.n * 10n ** BigInt(b.e - e);
}
