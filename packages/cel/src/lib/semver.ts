// kube's semver library (library/semverlib.go, kube 1.33): semver(), isSemver() and Semver's methods, with
// blang/semver's parsing (strict SemVer 2.0.0; `normalize` accepts a `v` prefix, leading zeros and short versions).
import { celFunc, celMethod, CelScalar, type CelFunc, type CelValue } from '@bufbuild/cel';
import { SEMVER } from '../opaque.js';

const { STRING, BOOL, INT } = CelScalar;
const S = SEMVER.celType;

interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string[];
}

const NUMERIC = /^(0|[1-9]\d*)$/;
const IDENT = /^[0-9A-Za-z-]+$/;

/** blang/semver's Parse; throws with its reason. */
export function parseSemver(s: string): Version {
  const plus = s.indexOf('+');
  const build = plus >= 0 ? s.slice(plus + 1) : undefined;
  const core = plus >= 0 ? s.slice(0, plus) : s;
  if (build !== undefined && build.split('.').some((b) => !IDENT.test(b))) throw new Error(`Invalid character(s) found in build meta data ${JSON.stringify(build)}`);
  const dash = core.indexOf('-');
  const main = dash >= 0 ? core.slice(0, dash) : core;
  const parts = main.split('.');
  if (parts.length !== 3) throw new Error('No Major.Minor.Patch elements found');
  const names = ['major', 'minor', 'patch'];
  const nums = parts.map((p, i) => {
    if (!/^\d+$/.test(p)) throw new Error(`Invalid character(s) found in ${names[i]} number ${JSON.stringify(p)}`);
    if (!NUMERIC.test(p)) throw new Error(`${names[i][0].toUpperCase()}${names[i].slice(1)} number must not contain leading zeroes ${JSON.stringify(p)}`);
    return BigInt(p);
  });
  const pre = dash >= 0 ? core.slice(dash + 1).split('.') : [];
  for (const p of pre) {
    if (p === '') throw new Error('Prerelease is empty');
    if (!IDENT.test(p)) throw new Error(`Invalid character(s) found in prerelease ${JSON.stringify(p)}`);
    if (/^\d+$/.test(p) && !NUMERIC.test(p)) throw new Error(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(p)}`);
  }
  return { major: nums[0], minor: nums[1], patch: nums[2], pre };
}

/** kube's normalizeAndParse: `v` prefix, leading zeros and missing minor/patch allowed. */
function normalizeAndParse(s: string): Version {
  const parts = s.replace(/^v/, '').split('.');
  const head = parts.slice(0, 2);
  const rest = parts.slice(2).join('.');
  const all = rest === '' && parts.length <= 2 ? head : [...head, rest];
  const trimmed = all.map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t === '' || !/^\d/.test(t) ? `0${t}` : t;
  });
  if (trimmed.length < 3) {
    if (/[+-]/.test(trimmed[trimmed.length - 1])) throw new Error('short version cannot contain PreRelease/Build meta data');
    while (trimmed.length < 3) trimmed.push('0');
  }
  return parseSemver(trimmed.join('.'));
}

const text = (v: Version) => `${v.major}.${v.minor}.${v.patch}${v.pre.length ? `-${v.pre.join('.')}` : ''}`;
const read = (v: CelValue) => parseSemver(SEMVER.text(v));

function compare(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

const parse = (s: string, normalize: boolean) => (normalize ? normalizeAndParse(s) : parseSemver(s));
const valid = (s: string, normalize: boolean) => {
  try {
    parse(s, normalize);
    return true;
  } catch {
    return false;
  }
};

/** The semver library. */
export const semverLibrary: CelFunc[] = [
  celFunc('semver', [STRING], S, (s) => SEMVER.make(text(parse(s, false)))),
  celFunc('semver', [STRING, BOOL], S, (s, n) => SEMVER.make(text(parse(s, n)))),
  celFunc('isSemver', [STRING], BOOL, (s) => valid(s, false)),
  celFunc('isSemver', [STRING, BOOL], BOOL, (s, n) => valid(s, n)),
  celMethod('isGreaterThan', S, [S], BOOL, function (o) {
    return compare(read(this), read(o)) > 0;
  }),
  celMethod('isLessThan', S, [S], BOOL, function (o) {
    return compare(read(this), read(o)) < 0;
  }),
  celMethod('compareTo', S, [S], INT, function (o) {
    return BigInt(compare(read(this), read(o)));
  }),
  celMethod('major', S, [], INT, function () {
    return read(this).major;
  }),
  celMethod('minor', S, [], INT, function () {
    return read(this).minor;
  }),
  celMethod('patch', S, [], INT, function () {
    return read(this).patch;
  }),
];
