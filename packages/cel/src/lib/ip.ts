// kube's IP and CIDR libraries (library/ip.go, library/cidr.go).
import { celFunc, celMethod, CelScalar, type CelFunc, type CelValue } from '@bufbuild/cel';
import { CIDR_TYPE, IP_TYPE } from '../opaque.js';
import { formatAddr, formatPrefix, maskAddr, parseAddr, parsePrefix, prefixContains, type Addr, type Prefix } from './netaddr.js';

const { STRING, BOOL, INT } = CelScalar;
const IP = IP_TYPE.celType;
const CIDR = CIDR_TYPE.celType;

const ipOf = (v: CelValue): Addr => parseAddr(IP_TYPE.text(v));
const cidrOf = (v: CelValue): Prefix => parsePrefix(CIDR_TYPE.text(v));
const makeIP = (a: Addr) => IP_TYPE.make(formatAddr(a));
const makeCIDR = (p: Prefix) => CIDR_TYPE.make(formatPrefix(p));

function parseCIDR(s: string): Prefix {
  try {
    return parsePrefix(s);
  } catch (e) {
    const m = (e as Error).message;
    if (m.startsWith('IPv4-mapped')) throw e;
    throw new Error(`network address parse error during conversion from string: ${m}`);
  }
}

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

const isLoopback = (a: Addr) => (a.length === 4 ? a[0] === 127 : a.every((b, i) => b === (i === 15 ? 1 : 0)));
const isUnspecified = (a: Addr) => a.every((b) => b === 0);
const isMulticast = (a: Addr) => (a.length === 4 ? (a[0] & 0xf0) === 0xe0 : a[0] === 0xff);
const isLinkLocalUnicast = (a: Addr) => (a.length === 4 ? a[0] === 169 && a[1] === 254 : a[0] === 0xfe && (a[1] & 0xc0) === 0x80);
const isLinkLocalMulticast = (a: Addr) => (a.length === 4 ? a[0] === 224 && a[1] === 0 && a[2] === 0 : a[0] === 0xff && (a[1] & 0x0f) === 0x02);
const isBroadcast = (a: Addr) => a.length === 4 && a.every((b) => b === 255);

const containsCIDR = (p: Prefix, o: Prefix) => p.bits <= o.bits && prefixContains(p, o.addr);

/** The IP library. */
export const ipLibrary: CelFunc[] = [
  celFunc('ip', [STRING], IP, (s) => makeIP(parseAddr(s))),
  celFunc('isIP', [STRING], BOOL, (s) => succeeds(() => parseAddr(s))),
  celFunc('ip.isCanonical', [STRING], BOOL, (s) => formatAddr(parseAddr(s)) === s),
  celFunc('string', [IP], STRING, (v) => IP_TYPE.text(v)),
  celMethod('family', IP, [], INT, function () {
    return ipOf(this).length === 4 ? 4n : 6n;
  }),
  celMethod('isUnspecified', IP, [], BOOL, function () {
    return isUnspecified(ipOf(this));
  }),
  celMethod('isLoopback', IP, [], BOOL, function () {
    return isLoopback(ipOf(this));
  }),
  celMethod('isLinkLocalMulticast', IP, [], BOOL, function () {
    return isLinkLocalMulticast(ipOf(this));
  }),
  celMethod('isLinkLocalUnicast', IP, [], BOOL, function () {
    return isLinkLocalUnicast(ipOf(this));
  }),
  celMethod('isGlobalUnicast', IP, [], BOOL, function () {
    const a = ipOf(this);
    return !(isUnspecified(a) || isLoopback(a) || isMulticast(a) || isLinkLocalUnicast(a) || isBroadcast(a));
  }),
];

/** The CIDR library. */
export const cidrLibrary: CelFunc[] = [
  celFunc('cidr', [STRING], CIDR, (s) => makeCIDR(parseCIDR(s))),
  celFunc('isCIDR', [STRING], BOOL, (s) => succeeds(() => parsePrefix(s))),
  celFunc('string', [CIDR], STRING, (v) => CIDR_TYPE.text(v)),
  celMethod('containsIP', CIDR, [STRING], BOOL, function (s) {
    return prefixContains(cidrOf(this), parseAddr(s));
  }),
  celMethod('containsIP', CIDR, [IP], BOOL, function (ip) {
    return prefixContains(cidrOf(this), ipOf(ip));
  }),
  celMethod('containsCIDR', CIDR, [STRING], BOOL, function (s) {
    return containsCIDR(cidrOf(this), parseCIDR(s));
  }),
  celMethod('containsCIDR', CIDR, [CIDR], BOOL, function (c) {
    return containsCIDR(cidrOf(this), cidrOf(c));
  }),
  celMethod('ip', CIDR, [], IP, function () {
    return makeIP(cidrOf(this).addr);
  }),
  celMethod('masked', CIDR, [], CIDR, function () {
    const p = cidrOf(this);
    return makeCIDR({ addr: maskAddr(p.addr, p.bits), bits: p.bits });
  }),
  celMethod('prefixLength', CIDR, [], INT, function () {
    return BigInt(cidrOf(this).bits);
  }),
];
