import { at, int, listAt, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost, ResourceEntry } from '@kapi/apiserver';
import type { ServiceRef } from './ip-allocator.js';

/** What a Service needs from the node port range: a port per service port, and a health-check port. */
export interface Want {
  ports: boolean;
  healthCheck: boolean;
}

/** How long a port handed out stays taken before its Service is stored (a create that then fails frees it). */
const PENDING_MS = 30_000;

/**
 * Node ports of NodePort and LoadBalancer Services, and health-check node ports of LoadBalancers that keep traffic
 * local, from `--service-node-port-range`. The ports in use are read
 * from the stored Services; allocations run one at a time in this process and count as taken until their Service
 * is stored. Servers sharing storage do not coordinate their node ports (kube keeps a bitmap in one object).
 */
export function createNodePortAllocator(host: PluginHost, range: { base: number; size: number }, services: ResourceEntry) {
  const ctx = host.systemContext(services);
  const pending = new Map<number, { owner: string; until: number }>();
  let queue: Promise<unknown> = Promise.resolve();
  const key = (svc: ServiceRef) => `${svc.namespace}/${svc.name}`;
  const rangeText = `${range.base}-${range.base + range.size - 1}`;

  async function used(self: ServiceRef): Promise<Set<number>> {
    const taken = new Set<number>();
    const now = Date.now();
    for (const [port, p] of pending) {
      if (p.until < now) pending.delete(port);
      else if (p.owner !== key(self)) taken.add(port);
    }
    for (const svc of (await host.store.list(ctx)).items) {
      if (svc.metadata?.namespace === self.namespace && svc.metadata?.name === self.name) continue;
      for (const p of listAt(svc, 'spec.ports')) if (int(at(p, 'nodePort')) > 0) taken.add(int(at(p, 'nodePort')));
      const health = int(at(svc, 'spec.healthCheckNodePort'));
      if (health > 0) taken.add(health);
    }
    return taken;
  }

  /**
   * Gives every port of `svc` a node port (with `ports`) and the Service its health-check node port (with
   * `healthCheck`), keeping the ones it asks for when free; returns kube's field errors.
   */
  async function assign(svc: KubeObject, self: ServiceRef, dryRun: boolean, want: Want): Promise<FieldError[]> {
    const taken = await used(self);
    const errors: FieldError[] = [];
    const mine = new Set<number>();
    /** The port asked for at `field` if it is free, else a free one; undefined (with an error) when there is none. */
    const take = (requested: number, field: string): number | undefined => {
      if (requested > 0) {
        if (requested < range.base || requested >= range.base + range.size) {
          errors.push({ type: 'FieldValueInvalid', field, badValue: requested, message: `provided port is not in the valid range. The range of valid ports is ${rangeText}` });
        } else if (taken.has(requested) || mine.has(requested)) {
          errors.push({ type: 'FieldValueInvalid', field, badValue: requested, message: 'provided port is already allocated' });
        }
        mine.add(requested);
        return requested;
      }
      const full = () => void errors.push({ type: 'InternalError', field, message: 'failed to allocate a nodePort: range is full' });
      // A full range is known without probing it (a Service with thousands of ports must not scan it for each).
      if (range.size - taken.size - mine.size <= 0) return full();
      let candidate = range.base + Math.floor(Math.random() * range.size);
      for (let n = 0; n < range.size && (taken.has(candidate) || mine.has(candidate)); n++) {
        candidate = range.base + ((candidate - range.base + 1) % range.size);
      }
      if (taken.has(candidate) || mine.has(candidate)) return full();
      mine.add(candidate);
      return candidate;
    };
    if (want.ports) {
      listAt(svc, 'spec.ports').forEach((port, i) => {
        const p = port as { nodePort?: number };
        const got = take(int(p.nodePort), `spec.ports[${i}].nodePort`);
        if (got !== undefined) p.nodePort = got;
      });
    }
    if (want.healthCheck) {
      const spec = svc.spec as { healthCheckNodePort?: number };
      const got = take(int(spec.healthCheckNodePort), 'spec.healthCheckNodePort');
      if (got !== undefined) spec.healthCheckNodePort = got;
    }
    if (!errors.length && !dryRun) for (const port of mine) pending.set(port, { owner: key(self), until: Date.now() + PENDING_MS });
    return errors;
  }

  return {
    /** Frees the ports handed out to `self` and not yet stored: its write failed, or a new write of it allocates anew. */
    release(self: ServiceRef): void {
      for (const [port, p] of pending) if (p.owner === key(self)) pending.delete(port);
    },
    /** {@link assign}, one allocation at a time. */
    assign(svc: KubeObject, self: ServiceRef, dryRun: boolean, want: Want): Promise<FieldError[]> {
      const run = queue.then(() => assign(svc, self, dryRun, want));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

export type NodePortAllocator = ReturnType<typeof createNodePortAllocator>;
