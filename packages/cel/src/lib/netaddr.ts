// IP addresses and prefixes as Go's net/netip reads and writes them (strict: no leading zeros, no zones).

/** An IP address: 4 or 16 bytes. */
export type Addr = Uint8Array;

function parseIPv4(s: string): Addr | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i];
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p[0] === '0') || Number(p) > 255) return undefined;
    out[i] = Number(p);
  }
  return out;
}

function parseIPv6(s: string): Addr | undefined {
  if (s.includes('%')) return undefined;
  let head = s;
  let tail = '';
  const dbl = s.indexOf('::');
  if (dbl >= 0) {
    head = s.slice(0, dbl);
    tail = s.slice(dbl + 2);
    if (tail.includes('::')) return undefined;
  }
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      if (i === pieces.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return undefined;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const h = groups(head);
  const t = groups(tail);
  if (!h || !t) return undefined;
  if (dbl < 0 ? h.length !== 8 : h.length + t.length > 7) return undefined;
  const all = [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

/** Parses an IP address as netip.ParseAddr; throws with Go's reason. */
export function parseAddr(s: string): Addr {
  if (s.includes('%')) throw new Error(`IP address ${JSON.stringify(s)} with zone value is not allowed`);
  const a = s.includes(':') ? parseIPv6(s) : parseIPv4(s);
  if (!a) throw new Error(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): unable to parse IP`);
  if (isMapped(a)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  return a;
}

const isMapped = (a: Addr): boolean => a.length === 16 && a.slice(0, 10).every((b) => b === 0) && a[10] === 0xff && a[11] === 0xff;

/** An address's canonical text (RFC 5952 for IPv6, as netip.Addr.String()). */
export function formatAddr(a: Addr): string {
  if (a.length === 4) return a.join('.');
  const g: number[] = [];
  for (let i = 0; i < 16; i += 2) g.push((a[i] << 8) | a[i + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

/** An IP prefix (`addr/bits`), the address as written (host bits kept, as netip.Prefix). */
export interface Prefix {
  addr: Addr;
  bits: number;
}

/** Parses a prefix as netip.ParsePrefix; throws with Go's reason. */
export function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  const fail = (why: string): never => {
    throw new Error(`netip.ParsePrefix(${JSON.stringify(s)}): ${why}`);
  };
  if (slash < 0) fail('no \'/\'');
  const addrText = s.slice(0, slash);
  const bitsText = s.slice(slash + 1);
  if (addrText.includes('%')) fail('IPv6 zones cannot be present in a prefix');
  const addr = addrText.includes(':') ? parseIPv6(addrText) : parseIPv4(addrText);
  if (!addr) fail(`ParseAddr(${JSON.stringify(addrText)}): unable to parse IP`);
  if (isMapped(addr!)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  if (!/^(0|[1-9]\d*)$/.test(bitsText) || Number(bitsText) > addr!.length * 8) fail(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  return { addr: addr!, bits: Number(bitsText) };
}

/** The address with host bits cleared. */
export function maskAddr(a: Addr, bits: number): Addr {
  const out = new Uint8Array(a);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    out[i] &= keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
  }
  return out;
}

/** Whether the prefix contains the address (netip.Prefix.Contains: host bits of the prefix are ignored). */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.length !== p.addr.length) return false;
  const x = maskAddr(a, p.bits);
  const y = maskAddr(p.addr, p.bits);
  return x.every((b, i) => b === y[i]);
}

export const formatPrefix = (p: Prefix): string => `${formatAddr(p.addr)}/${p.bits}`;
