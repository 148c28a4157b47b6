import { formatQuantity, isObj, parseQuantity, type QuantityFormat } from '@kapi/apimachinery';
import { addDecimals, compareQuantities, decimal, type Decimal } from '../quantity.js';

// kube's quota ResourceList arithmetic (k8s.io/apiserver/pkg/quota/v1/resources.go) on lists of quantity strings:
// sums keep the format of the quantity added to, unless it is zero (Go's Quantity.Add), and print canonically
// (Quantity.String()).

export type ResourceList = Record<string, string>;

/** A resource list field of an object (requests, limits, hard, used...), none when it is not a map. */
export const resourceList = (v: unknown): ResourceList => (isObj(v) ? (v as ResourceList) : {});

/** A quantity's format (DecimalSI for what does not parse, which decimal() reads as zero). */
const formatOf = (q: unknown): QuantityFormat => {
  try {
    return parseQuantity(String(q)).format;
  } catch {
    return 'DecimalSI';
  }
};
const text = (d: Decimal, format: QuantityFormat) => formatQuantity(d, format);

/** a + b, each name of either (quota.Add). */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [name, q] of Object.entries(b)) {
    if (!Object.hasOwn(out, name)) out[name] = text(decimal(q), formatOf(q));
    else {
      const x = decimal(out[name]);
      // Quantity.Add: a zero takes the format of what is added to it.
      out[name] = text(addDecimals(x, decimal(q)), x.n === 0n ? formatOf(q) : formatOf(out[name]));
    }
  }
  return out;
}

/** a - b, never below zero, over the names of a (quota.SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of Object.entries(a)) {
    const y = decimal(Object.hasOwn(b, name) ? b[name] : '0');
    const difference = addDecimals(decimal(q), { n: -y.n, e: y.e });
    out[name] = text(difference.n > 0n ? difference : { n: 0n, e: difference.e }, formatOf(q));
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
export const removeZeros = (list: ResourceList): ResourceList => Object.fromEntries(Object.entries(list).filter(([, q]) => compareQuantities(q, '0') !== 0));

/** The names whose quantity in `a` exceeds `b`'s (quota.LessThanOrEqual's second result; a name b lacks is fine). */
export function exceeded(a: ResourceList, b: ResourceList): string[] {
  return Object.keys(a).filter((name) => Object.hasOwn(b, name) && compareQuantities(a[name], b[name]) > 0);
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
  for (const [name, q] of Object.entries(b)) if (!Object.hasOwn(out, name) || compareQuantities(q, out[name]) > 0) out[name] = q;
  return out;
}
