import type { PluginHost } from '@kapi/apiserver';
import { decodeRange, encodeRange } from './range-allocation.js';

export interface PortRange {
  base: number;
  size: number;
}

/** Where kube keeps the node port bitmap (`/registry/ranges/servicenodeports`), read by every server on the storage. */
export const NODE_PORTS_PATH = 'ranges/servicenodeports';

/** One port a Service write takes: the one it asks for, or (`next`) any free one. */
export type PortAsk = { port: number } | { next: true };

/** Why the ask at `index` could not be had, in kube's words (portallocator's errors). */
export interface PortRefusal {
  index: number;
  port: number;
  reason: string;
}

/** A port freed this many repairs in a row without a Service holding it is given back (kube's numRepairsBeforeLeakCleanup). */
const REPAIRS_BEFORE_LEAK_CLEANUP = 3;

/**
 * kube's calculateRangeOffset for node ports (ServiceNodePortStaticSubrange): free ports are picked from above this
 * offset first, leaving the lower band to Services that ask for a port.
 */
export function staticBand(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

/**
 * Node ports as kube's portallocator keeps them: a bitmap of `--service-node-port-range` in one stored value, taken
 * and given back by compare-and-swap, so servers sharing storage never hand out a port twice. A repair loop (kube's
 * portallocator controller) records again the ports Services hold and frees those nobody holds for three repairs in
 * a row (a create that took a port and never stored its Service).
 */
export function createNodePortAllocator(host: PluginHost, range: PortRange) {
  const record = host.storedValue(NODE_PORTS_PATH);
  const rangeText = `${range.base}-${range.base + range.size - 1}`;
  const band = staticBand(range.size);
  const inRange = (port: number) => port >= range.base && port < range.base + range.size;
  const read = (bytes: Uint8Array | undefined) => decodeRange(bytes, range);
  /** Ports that look leaked, with how many more repairs keep them (kube's leaks map). */
  let leaks = new Map<number, number>();

  /** A free port: random ones above the static band first, then the lower band; undefined when the range is full. */
  function pick(taken: ReadonlySet<number>): number | undefined {
    const bands: [number, number][] = band ? [[band, range.size - band], [0, band]] : [[0, range.size]];
    for (const [start, size] of bands) {
      const first = Math.floor(Math.random() * size);
      for (let i = 0; i < size; i++) {
        const port = range.base + start + ((first + i) % size);
        if (!taken.has(port)) return port;
      }
    }
    return undefined;
  }

  /**
   * Takes the ports of `asks` in order, in one compare-and-swap: the ports each got, or the first refusal (nothing
   * is taken then). A dry run takes nothing and answers as kube's dry-run operation does: a port asked for is
   * refused only when taken, and free ports are stand-ins counted up from 32769.
   */
  async function take(asks: readonly PortAsk[], dryRun: boolean): Promise<{ ports: number[] } | { refused: PortRefusal }> {
    let outcome: { ports: number[] } | { refused: PortRefusal } = { ports: [] };
    const plan = (taken: Set<number>): boolean => {
      const ports: number[] = [];
      for (const [index, ask] of asks.entries()) {
        let port: number | undefined;
        if ('port' in ask) {
          port = ask.port;
          const reason = !dryRun && !inRange(port) ? `provided port is not in the valid range. The range of valid ports is ${rangeText}` : taken.has(port) ? 'provided port is already allocated' : '';
          if (reason) return void (outcome = { refused: { index, port, reason } }), false;
        } else if (dryRun) {
          port = (ports.length ? Math.max(...ports) : 32768) + 1;
        } else if ((port = pick(taken)) === undefined) {
          return void (outcome = { refused: { index, port: 0, reason: 'range is full' } }), false;
        }
        taken.add(port);
        ports.push(port);
      }
      outcome = { ports };
      return true;
    };
    if (dryRun) {
      plan(read(await record.get()).ports);
      return outcome;
    }
    await record.update((current) => {
      const { ports } = read(current);
      return plan(ports) ? encodeRange(ports, range) : undefined;
    });
    return outcome;
  }

  /** Gives `ports` back (a write that failed, an update or delete that no longer holds them). */
  async function release(ports: readonly number[]): Promise<void> {
    if (!ports.length) return;
    await record.update((current) => {
      const { ports: taken } = read(current);
      const before = taken.size;
      for (const port of ports) taken.delete(port);
      return taken.size === before ? undefined : encodeRange(taken, range);
    });
  }

  /**
   * kube's node port repair: `held` are the ports stored Services hold. Each is recorded (the range is rebuilt on
   * a first start or after its value was lost); a port recorded but held by none is kept for three repairs, then
   * freed. Returns the held ports outside the range (kube's PortOutOfRange: the Service must be recreated).
   */
  async function repair(held: ReadonlySet<number>): Promise<number[]> {
    let nextLeaks = new Map<number, number>();
    await record.update((current) => {
      const { ports: recorded, foreign } = read(current);
      const rebuilt = new Set<number>();
      for (const port of held) if (inRange(port)) rebuilt.add(port);
      nextLeaks = new Map();
      for (const port of recorded) {
        if (rebuilt.has(port)) continue;
        const left = (leaks.get(port) ?? REPAIRS_BEFORE_LEAK_CLEANUP) - 1;
        if (left > 0) {
          nextLeaks.set(port, left);
          rebuilt.add(port);
        }
      }
      const same = !foreign && rebuilt.size === recorded.size && [...rebuilt].every((p) => recorded.has(p));
      return current && same ? undefined : encodeRange(rebuilt, range);
    });
    leaks = nextLeaks;
    return [...held].filter((port) => !inRange(port));
  }

  return { take, release, repair, rangeText };
}

export type NodePortAllocator = ReturnType<typeof createNodePortAllocator>;
