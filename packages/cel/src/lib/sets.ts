// CEL's sets extension (cel-go ext.Sets): sets.contains, sets.equivalent, sets.intersects.
import { celFunc, CelScalar, listType, type CelFunc, type CelList } from '@bufbuild/cel';
import { celEquals } from './equality.js';

const LIST = listType(CelScalar.DYN);
const { BOOL } = CelScalar;

const has = (list: CelList, v: unknown): boolean => {
  for (const e of list) if (celEquals(e, v as never)) return true;
  return false;
};
const containsAll = (a: CelList, b: CelList): boolean => {
  for (const e of b) if (!has(a, e)) return false;
  return true;
};

/** The sets library. */
export const setsLibrary: CelFunc[] = [
  celFunc('sets.contains', [LIST, LIST], BOOL, containsAll),
  celFunc('sets.equivalent', [LIST, LIST], BOOL, (a, b) => containsAll(a, b) && containsAll(b, a)),
  celFunc('sets.intersects', [LIST, LIST], BOOL, (a, b) => {
    for (const e of b) if (has(a, e)) return true;
    return false;
  }),
];
