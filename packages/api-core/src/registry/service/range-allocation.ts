/**
 * kube's RangeAllocation (core/v1, stored only): a range and the bitmap of what is taken in it, as kube's
 * allocator.AllocationBitmap snapshots it: the big-endian bytes of a big integer whose bit i is the range's i-th
 * member. Stored as JSON, which kube-apiserver's storage decoder reads too.
 */
interface RangeAllocation {
  kind: 'RangeAllocation';
  apiVersion: 'v1';
  metadata: { creationTimestamp: null };
  range: string;
  data: string;
}

const text = new TextEncoder();
const bytesText = new TextDecoder();

const rangeText = (range: { base: number; size: number }) => `${range.base}-${range.base + range.size - 1}`;

/** The stored value of the ports `taken` in `range` (ports outside it are left out). */
export function encodeRange(taken: ReadonlySet<number>, range: { base: number; size: number }): Uint8Array {
  let top = -1;
  for (const port of taken) if (port >= range.base && port < range.base + range.size) top = Math.max(top, port - range.base);
  const bytes = new Uint8Array(top < 0 ? 0 : (top >> 3) + 1);
  for (const port of taken) {
    const bit = port - range.base;
    if (bit < 0 || bit > top) continue;
    bytes[bytes.length - 1 - (bit >> 3)] |= 1 << (bit & 7);
  }
  const value: RangeAllocation = {
    kind: 'RangeAllocation',
    apiVersion: 'v1',
    metadata: { creationTimestamp: null },
    range: rangeText(range),
    data: Buffer.from(bytes).toString('base64'),
  };
  return text.encode(JSON.stringify(value));
}

/**
 * The ports a stored value records as taken (none for no value), read by the range it names; `foreign` when that
 * is not `range` (the server was started with another `--service-node-port-range`). A value that is not a
 * RangeAllocation throws: it was not written by an allocator, and overwriting it would lose what it says.
 */
export function decodeRange(value: Uint8Array | undefined, range: { base: number; size: number }): { ports: Set<number>; foreign: boolean } {
  const ports = new Set<number>();
  if (!value) return { ports, foreign: false };
  let stored: Partial<RangeAllocation>;
  try {
    stored = JSON.parse(bytesText.decode(value)) as Partial<RangeAllocation>;
  } catch {
    stored = {};
  }
  const m = /^(\d+)-(\d+)$/.exec(String(stored.range ?? ''));
  if (stored.kind !== 'RangeAllocation' || !m || typeof stored.data !== 'string') {
    throw new Error('the stored node port allocation is not a RangeAllocation');
  }
  const base = Number(m[1]);
  const bytes = Buffer.from(stored.data, 'base64');
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[bytes.length - 1 - i];
    for (let b = 0; b < 8; b++) if (byte & (1 << b)) ports.add(base + i * 8 + b);
  }
  return { ports, foreign: stored.range !== rangeText(range) };
}
