// kube's regex library (library/regex.go): `find` and `findAll`, with RE2 semantics (re2js, linear time).
import { celMethod, CelScalar, listType, type CelFunc } from '@bufbuild/cel';
import { RE2JS } from 're2js';

const { STRING, INT } = CelScalar;
const cache = new Map<string, RE2JS>();

/** A compiled RE2 pattern (cached), or an `Illegal regex` error as kube reports it. */
export function compileRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw new Error(`Illegal regex: ${(e as Error).message}`);
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const out: string[] = [];
  if (limit === 0n) return out;
  const m = compileRegex(pattern).matcher(s);
  let from = 0;
  while (from <= s.length && m.find(from)) {
    out.push(m.group() ?? '');
    if (limit > 0n && BigInt(out.length) >= limit) break;
    from = m.end() > m.start() ? m.end() : m.end() + 1;
  }
  return out;
}

/** The regex library. */
export const regexLibrary: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (pattern) {
    const m = compileRegex(pattern).matcher(this);
    return m.find() ? (m.group() ?? '') : '';
  }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) {
    return findAll(this, pattern, -1n);
  }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, limit) {
    return findAll(this, pattern, limit);
  }),
];
