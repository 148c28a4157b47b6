// IPv4 service ranges (kube's --service-cluster-ip-range, netutils.ParseCIDRSloppy): addresses as 32-bit numbers.

export interface Cidr {
  /** The range as written (`10.0.0.0/24`). */
  text: string;
  /** The network address. */
  base: number;
  /** Number of addresses in the range. */
  size: number;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IPv4 address as a number, undefined when `text` is none. */
export function parseIPv4(text: string): number | undefined {
  const m = IPV4.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

export const formatIPv4 = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** Parses `a.b.c.d/n`; throws with kube's flag message when it is not an IPv4 CIDR with room for services. */
export function parseCidr(text: string): Cidr {
  const [ip, bits, ...rest] = text.split('/');
  const base = parseIPv4(ip ?? '');
  const prefix = Number(bits);
  if (base === undefined || rest.length || !/^\d{1,2}$/.test(bits ?? '') || prefix > 32) throw new Error(`invalid CIDR address: ${text}`);
  if (prefix > 30) throw new Error(`the service cluster IP range ${text} is too small: it needs at least 4 addresses`);
  const size = 2 ** (32 - prefix);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { text, base: (base & mask) >>> 0, size };
}

/**
 * The addresses services may get (kube's ipallocator): the range without its network and broadcast addresses.
 * The first of them is the `kubernetes` Service's.
 */
export function usableRange(cidr: Cidr): { first: number; count: number } {
  return { first: cidr.base + 1, count: cidr.size - 2 };
}

export const inRange = (cidr: Cidr, ip: number): boolean => {
  const { first, count } = usableRange(cidr);
  return ip >= first && ip < first + count;
};

/** `from-to`, as `--service-node-port-range` takes it (`30000-32767`). */
export function parsePortRange(text: string): { base: number; size: number } {
  const m = /^(\d+)-(\d+)$/.exec(text.trim());
  const [from, to] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || from < 1 || to > 65535 || from > to) throw new Error(`invalid port range "${text}": expected <from>-<to> within 1-65535`);
  return { base: from, size: to - from + 1 };
}
