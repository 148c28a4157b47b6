import { formatQuantity, parseQuantity, type QuantityDecimal, type QuantityFormat } from '@kapi/apimachinery';

// kube's quota ResourceList arithmetic (k8s.io/apiserver/pkg/quota/v1/resources.go) on lists of quantity strings:
// sums keep the format of the quantity added to, unless it is zero (Go's Quantity.Add), and print canonically
// (Quantity.String()).

export type ResourceList = Record<string, string>;

type Amount = { d: QuantityDecimal; format: QuantityFormat };

const amount = (q: unknown): Amount => {
  try {
    const { value, format } = parseQuantity(String(q));
    return { d: value, format };
  } catch {
    return { d: { n: 0n, e: 0 }, format: 'DecimalSI' };
  }
};
const aligned = (a: QuantityDecimal, b: QuantityDecimal): [bigint, bigint, number] => {
  const e = Math.min(a.e, b.e);
  return [a.n * 10n ** BigInt(a.e - e), b.n * 10n ** BigInt(b.e - e), e];
};
const text = (a: Amount) => formatQuantity(a.d, a.format);

/** -1, 0 or 1 as quantity `a` is less than, equal to or more than `b`. */
export function cmp(a: unknown, b: unknown): number {
  const [l, r] = aligned(amount(a).d, amount(b).d);
  return l === r ? 0 : l < r ? -1 : 1;
}

/** a + b, each name of either (quota.Add). */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [name, q] of Object.entries(b)) {
    if (!Object.hasOwn(out, name)) out[name] = text(amount(q));
    else {
      const x = amount(out[name]);
      const y = amount(q);
      const [l, r, e] = aligned(x.d, y.d);
      // Quantity.Add: a zero takes the format of what is added to it.
      out[name] = text({ d: { n: l + r, e }, format: x.d.n === 0n ? y.format : x.format });
    }
  }
  return out;
}

/** a - b, never below zero, over the names of a (quota.SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of Object.entries(a)) {
    const x = amount(q);
    const [l, r, e] = aligned(x.d, Object.hasOwn(b, name) ? amount(b[name]).d : { n: 0n, e: 0 });
    out[name] = text({ d: { n: l - r > 0n ? l - r : 0n, e }, format: x.format });
  }
  return out;
}

/** The entries of `list` named in `names` (quota.Mask). */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const name of names) if (Object.hasOwn(list, name)) out[name] = list[name];
  return out;
}

/** Without zero quantities (quota.RemoveZeros). */
export const removeZeros = (list: ResourceList): ResourceList => Object.fromEntries(Object.entries(list).filter(([, q]) => cmp(q, '0') !== 0));

/** The names whose quantity in `a` exceeds `b`'s (quota.LessThanOrEqual's second result; a name b lacks is fine). */
export function exceeded(a: ResourceList, b: ResourceList): string[] {
  return Object.keys(a).filter((name) => Object.hasOwn(b, name) && cmp(a[name], b[name]) > 0);
}

/** kube's prettyPrint: `name=quantity` pairs by name, joined with commas. */
export const prettyPrint = (list: ResourceList): string =>
  Object.keys(list)
    .sort()
    .map((name) => `${name}=${list[name]}`)
    .join(',');

/** The larger of each name of both (kube's maxResourceList). */
export function max(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [name, q] of Object.entries(b)) if (!Object.hasOwn(out, name) || cmp(q, out[name]) > 0) out[name] = q;
  return out;
}
