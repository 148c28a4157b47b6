// kube's lists library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max, indexOf, lastIndexOf.
import { celMethod, CelScalar, isCelUint, listType, celUint, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { celEquals } from './equality.js';

const LIST = listType(CelScalar.DYN);
const { DYN, BOOL, INT } = CelScalar;

function timeParts(v: CelValue): [bigint, number] | undefined {
  if (typeof v !== 'object' || v === null || !('desc' in v)) return undefined;
  const m = (v as ReflectMessage).message as { $typeName?: string; seconds?: bigint; nanos?: number };
  if (m.$typeName !== 'google.protobuf.Timestamp' && m.$typeName !== 'google.protobuf.Duration') return undefined;
  return [m.seconds ?? 0n, m.nanos ?? 0];
}

const kindOf = (v: CelValue): string => {
  if (typeof v === 'bigint' || typeof v === 'number' || isCelUint(v)) return 'number';
  if (typeof v === 'string' || typeof v === 'boolean') return typeof v;
  if (v instanceof Uint8Array) return 'bytes';
  const t = timeParts(v);
  if (t) return ((v as ReflectMessage).message as { $typeName: string }).$typeName;
  return 'other';
};

/** CEL ordering of two comparable values of one kind (numbers compare across int, uint and double). */
export function celCompare(a: CelValue, b: CelValue): number {
  const ka = kindOf(a);
  if (ka !== kindOf(b) || ka === 'other') throw new Error('no such overload');
  if (ka === 'number') {
    const x = isCelUint(a) ? a.value : (a as bigint | number);
    const y = isCelUint(b) ? b.value : (b as bigint | number);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (ka === 'bytes') return Buffer.compare(Buffer.from(a as Uint8Array), Buffer.from(b as Uint8Array));
  if (ka === 'string' || ka === 'boolean') return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  const [as, an] = timeParts(a)!;
  const [bs, bn] = timeParts(b)!;
  return as !== bs ? (as < bs ? -1 : 1) : an - bn;
}

function extreme(list: CelList, name: string, sign: number): CelValue {
  let best: CelValue | undefined;
  for (const v of list) if (best === undefined || celCompare(v, best) * sign > 0) best = v;
  if (best === undefined) throw new Error(`${name} called on empty list`);
  return best;
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

function sum(list: CelList): CelValue {
  let acc: CelValue | undefined;
  for (const v of list) {
    if (acc === undefined) acc = v;
    else if (typeof acc === 'bigint' && typeof v === 'bigint') {
      acc = acc + v;
      if (acc > INT64_MAX || acc < INT64_MIN) throw new Error('integer overflow');
    } else if (typeof acc === 'number' && typeof v === 'number') acc = acc + v;
    else if (isCelUint(acc) && isCelUint(v)) acc = celUint(acc.value + v.value);
    else if (kindOf(acc) === 'google.protobuf.Duration' && kindOf(v) === 'google.protobuf.Duration') {
      const [as, an] = timeParts(acc)!;
      const [bs, bn] = timeParts(v)!;
      const total = (as + bs) * 1_000_000_000n + BigInt(an + bn);
      acc = create(DurationSchema, { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) }) as never;
    } else throw new Error('no such overload');
  }
  // An empty list sums to int 0: without static types the element type of an empty list is unknown.
  return acc ?? 0n;
}

function indexOf(list: CelList, v: CelValue, last: boolean): bigint {
  let found = -1;
  let i = 0;
  for (const e of list) {
    if (celEquals(e, v)) {
      found = i;
      if (!last) break;
    }
    i++;
  }
  return BigInt(found);
}

/** The lists library. */
export const listsLibrary: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    let prev: CelValue | undefined;
    for (const v of this) {
      if (prev !== undefined && celCompare(prev, v) > 0) return false;
      prev = v;
    }
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function () {
    return sum(this) as never;
  }),
  celMethod('min', LIST, [], DYN, function () {
    return extreme(this, 'min', -1) as never;
  }),
  celMethod('max', LIST, [], DYN, function () {
    return extreme(this, 'max', 1) as never;
  }),
  celMethod('indexOf', LIST, [DYN], INT, function (v) {
    return indexOf(this, v, false);
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (v) {
    return indexOf(this, v, true);
  }),
];
