import { isAlreadyExists, isNotFound, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost, ResourceEntry } from '@kapi/apiserver';
import { formatIPv4, inRange, parseIPv4, usableRange, type Cidr } from './cidr.js';

export const MANAGED_BY_LABEL = 'ipaddress.kubernetes.io/managed-by';
export const IP_FAMILY_LABEL = 'ipaddress.kubernetes.io/ip-family';
export const MANAGER = 'ipallocator.k8s.io';

export interface ServiceRef {
  namespace: string;
  name: string;
}

type IPAddress = KubeObject & { spec?: { parentRef?: { group?: string; resource?: string; namespace?: string; name?: string } } };

/** Why an address cannot be had; the caller words it as kube does for the field it came from. */
export class AllocationError extends Error {}

/**
 * Cluster IPs as kube-apiserver 1.33 allocates them (MultiCIDRServiceAllocator, GA): each allocated address is a
 * networking.k8s.io/v1 IPAddress named by the address, whose parentRef is the Service. Creating that object is the
 * reservation, so two servers sharing storage never hand out one address twice.
 */
export function createIPAllocator(host: PluginHost, cidr: Cidr, ipAddresses: ResourceEntry) {
  const ctx = host.systemContext(ipAddresses);
  const { first, count } = usableRange(cidr);
  // kube's ServiceIPStaticSubrange: dynamic allocation prefers the upper band, leaving the lower for static IPs.
  const lowerBand = Math.min(Math.max(16, Math.floor(count / 16)), 256, count);

  const owns = (obj: IPAddress | undefined, svc: ServiceRef) =>
    obj?.spec?.parentRef?.resource === 'services' && obj.spec.parentRef.namespace === svc.namespace && obj.spec.parentRef.name === svc.name;

  const ipAddress = (ip: string, svc: ServiceRef): KubeObject => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: { name: ip, labels: { [IP_FAMILY_LABEL]: 'IPv4', [MANAGED_BY_LABEL]: MANAGER } },
    spec: { parentRef: { group: '', resource: 'services', namespace: svc.namespace, name: svc.name } },
  });

  /**
   * Reserves `ip` for `svc`: `created` when this call made the IPAddress, `held` when the Service already had it,
   * `taken` when another has it. A dry run only looks.
   */
  async function reserve(ip: string, svc: ServiceRef, dryRun: boolean): Promise<'created' | 'held' | 'taken'> {
    const current = (await host.store.find(ctx, ip)) as IPAddress | undefined;
    if (current) return owns(current, svc) ? 'held' : 'taken';
    if (dryRun) return 'held';
    try {
      await host.store.create(ctx, ipAddress(ip, svc));
      return 'created';
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      return owns((await host.store.find(ctx, ip)) as IPAddress | undefined, svc) ? 'held' : 'taken';
    }
  }

  /** Deletes the IPAddress of `ip` when `svc` holds it (a create that failed gives back what it took). */
  async function giveBack(ip: string, svc: ServiceRef): Promise<void> {
    const current = (await host.store.find(ctx, ip)) as IPAddress | undefined;
    if (!current || !owns(current, svc)) return;
    try {
      await host.store.delete(ctx, ip, { preconditions: { uid: String(current.metadata?.uid) } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  return {
    cidr,
    /** The first address of the range: the `kubernetes` Service's. */
    firstAddress: formatIPv4(first),

    giveBack,

    /**
     * Reserves the address a Service asks for; true when this call made the reservation (false: it had it already).
     * Throws AllocationError with kube's reason when it cannot.
     */
    async allocateSpecific(ip: string, svc: ServiceRef, dryRun: boolean): Promise<boolean> {
      const n = parseIPv4(ip);
      if (n === undefined || !inRange(cidr, n)) {
        throw new AllocationError(`the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cidr.text}`);
      }
      const outcome = await reserve(ip, svc, dryRun);
      if (outcome === 'taken') throw new AllocationError('provided IP is already allocated');
      return outcome === 'created';
    },

    /** Picks and reserves a free address: random ones of the upper band first, then any free one. */
    async allocateNext(svc: ServiceRef, dryRun: boolean): Promise<string> {
      const upper = count - lowerBand;
      for (let attempt = 0; attempt < 32; attempt++) {
        const offset = upper > 0 ? lowerBand + Math.floor(Math.random() * upper) : Math.floor(Math.random() * count);
        const ip = formatIPv4(first + offset);
        if ((await reserve(ip, svc, dryRun)) !== 'taken') return ip;
      }
      const taken = new Set((await host.store.list(ctx)).items.map((o) => String(o.metadata?.name)));
      const free: number[] = [];
      for (let i = 0; i < count; i++) if (!taken.has(formatIPv4(first + i))) free.push(i);
      while (free.length) {
        const [offset] = free.splice(Math.floor(Math.random() * free.length), 1);
        const ip = formatIPv4(first + offset);
        if ((await reserve(ip, svc, dryRun)) !== 'taken') return ip;
      }
      throw new AllocationError('range is full');
    },

    /**
     * kube's repair loop: gives back the addresses this allocator made for Services that no longer hold them, and
     * records again the address of a Service whose IPAddress is gone (deleted by hand), so it is not handed out twice.
     */
    async repair(held: ReadonlyMap<string, ServiceRef>, olderThanMs: number): Promise<void> {
      const now = Date.now();
      const addresses = (await host.store.list(ctx)).items as IPAddress[];
      const recorded = new Set(addresses.map((o) => String(o.metadata?.name)));
      for (const [ip, svc] of held) {
        const n = parseIPv4(ip);
        if (n !== undefined && inRange(cidr, n) && !recorded.has(ip)) await reserve(ip, svc, false);
      }
      const stillHeld = (svc: ServiceRef, ip: string) => held.get(ip)?.namespace === svc.namespace && held.get(ip)?.name === svc.name;
      for (const obj of addresses) {
        if (obj.metadata?.labels?.[MANAGED_BY_LABEL] !== MANAGER) continue;
        const ref = obj.spec?.parentRef;
        if (ref?.resource !== 'services') continue;
        const ip = String(obj.metadata.name);
        if (stillHeld({ namespace: ref.namespace ?? '', name: ref.name ?? '' }, ip)) continue;
        if (now - Date.parse(String(obj.metadata.creationTimestamp)) < olderThanMs) continue;
        try {
          await host.store.delete(ctx, ip, { preconditions: { uid: String(obj.metadata.uid) } });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    },
  };
}

export type IPAllocator = ReturnType<typeof createIPAllocator>;
