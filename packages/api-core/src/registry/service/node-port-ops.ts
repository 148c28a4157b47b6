import { newInternalError, newInvalid, str, type KubeObject } from '@kapi/apimachinery';
import type { NodePortAllocator, PortAsk, PortRefusal } from './node-ports.js';
import { needsHealthCheck } from './validation.js';

type Port = { port?: number; nodePort?: number };
type Spec = { type?: string; allocateLoadBalancerNodePorts?: boolean; healthCheckNodePort?: number; ports?: Port[] };

/** What a Service write did to the node port range, settled once the write is done (kube's PortAllocationOperation). */
export interface NodePortOperation {
  /** The write succeeded: the ports it no longer holds are given back. */
  commit(): Promise<void>;
  /** The write failed: the ports it took are given back. */
  revert(): Promise<void>;
}

const specOf = (svc: KubeObject): Spec => (svc.spec ?? {}) as Spec;
const hasNodePorts = (spec: Spec) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
/** kube's shouldAllocateNodePorts: a port without a node port gets one (a LoadBalancer may opt out). */
const allocatesNodePorts = (spec: Spec) => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);

/** kube's collectServiceNodePorts: the node ports a Service holds, its health-check node port included. */
export function heldNodePorts(svc: KubeObject): number[] {
  const spec = specOf(svc);
  const held = (spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p > 0);
  if (spec.healthCheckNodePort) held.push(spec.healthCheckNodePort);
  return held;
}

/** The asks of one write, each with what to do with its port and how a refusal of it is answered. */
class Asks {
  readonly asks: PortAsk[] = [];
  private readonly then: ((port: number) => void)[] = [];
  private readonly refusals: ((refusal: PortRefusal) => Error)[] = [];

  add(ask: PortAsk, then: (port: number) => void, refused: (refusal: PortRefusal) => Error): void {
    this.asks.push(ask);
    this.then.push(then);
    this.refusals.push(refused);
  }

  /** Takes them all (or none, throwing the refusal's error); returns the ports taken. */
  async take(allocator: NodePortAllocator, dryRun: boolean): Promise<number[]> {
    if (!this.asks.length) return [];
    const outcome = await allocator.take(this.asks, dryRun);
    if ('refused' in outcome) throw this.refusals[outcome.refused.index](outcome.refused);
    outcome.ports.forEach((port, i) => this.then[i](port));
    return outcome.ports;
  }
}

const portRefused = (svc: KubeObject, i: number) => (r: PortRefusal) =>
  newInvalid({ group: '', kind: 'Service' }, str(svc.metadata?.name), [{ type: 'FieldValueInvalid', field: `spec.ports[${i}].nodePort`, badValue: r.port, message: r.reason }]);
const nextRefused = (r: PortRefusal) => newInternalError(new Error(`failed to allocate a nodePort: ${r.reason}`));

/** kube's allocHealthCheckNodePort: the port asked for, or any; refusals are 500s. */
function askHealthCheck(asks: Asks, spec: Spec): void {
  const requested = spec.healthCheckNodePort ?? 0;
  if (requested) {
    asks.add({ port: requested }, () => {}, (r) => newInternalError(new Error(`failed to allocate requested HealthCheck NodePort ${requested}: ${r.reason}`)));
  } else {
    asks.add({ next: true }, (port) => (spec.healthCheckNodePort = port), (r) => newInternalError(new Error(`failed to allocate a HealthCheck NodePort 0: ${r.reason}`)));
  }
}

function settle(allocator: NodePortAllocator, dryRun: boolean, taken: number[], released: number[]): NodePortOperation {
  return {
    commit: async () => {
      if (!dryRun) await allocator.release(released);
    },
    revert: async () => {
      if (!dryRun) await allocator.release(taken);
    },
  };
}

/**
 * kube's initNodePorts and allocHealthCheckNodePort for a new Service: each port of a NodePort or LoadBalancer
 * Service gets the node port it asks for or a free one (ports of one number share theirs), a LoadBalancer keeping
 * traffic local its health-check port. A port taken or out of range is kube's 422; a full range its 500.
 */
export async function allocateOnCreate(allocator: NodePortAllocator, svc: KubeObject, dryRun: boolean): Promise<NodePortOperation> {
  const spec = specOf(svc);
  const asks = new Asks();
  if (hasNodePorts(spec)) {
    const ports = spec.ports ?? [];
    // By port number: the node port its ports share, or the ports waiting for the free one it asked for.
    const byNumber = new Map<number, number | Port[]>();
    ports.forEach((p, i) => {
      if (!p.nodePort && !allocatesNodePorts(spec)) return;
      const number = p.port ?? 0;
      const shared = byNumber.get(number);
      if (shared === undefined) {
        const requested = ports.find((q) => (q.port ?? 0) === number && q.nodePort)?.nodePort ?? 0;
        if (requested) {
          asks.add({ port: requested }, (port) => (p.nodePort = port), portRefused(svc, i));
          byNumber.set(number, requested);
        } else {
          const waiting = [p];
          asks.add({ next: true }, (port) => waiting.forEach((w) => (w.nodePort = port)), nextRefused);
          byNumber.set(number, waiting);
        }
      } else if (Array.isArray(shared)) {
        shared.push(p);
      } else if (p.nodePort !== shared) {
        if (!p.nodePort) p.nodePort = shared;
        else asks.add({ port: p.nodePort }, () => {}, portRefused(svc, i));
      }
    });
  }
  if (needsHealthCheck(spec)) askHealthCheck(asks, spec);
  return settle(allocator, dryRun, await asks.take(allocator, dryRun), []);
}

/**
 * kube's txnUpdateNodePorts: an update takes the node ports it asks for that the Service did not hold and free
 * ones for ports without, and gives back (once it is stored) those it no longer holds; a Service that stops being
 * NodePort or LoadBalancer gives back all of them, one that stops keeping traffic local its health-check port.
 */
export async function allocateOnUpdate(allocator: NodePortAllocator, svc: KubeObject, old: KubeObject, dryRun: boolean): Promise<NodePortOperation> {
  const [spec, before] = [specOf(svc), specOf(old)];
  const asks = new Asks();
  const released = new Set<number>();
  const oldHeld = heldNodePorts(old);
  if (hasNodePorts(before) && (spec.type === 'ClusterIP' || spec.type === 'ExternalName')) for (const port of oldHeld) released.add(port);
  if (hasNodePorts(spec)) {
    const asked = new Set<number>();
    (spec.ports ?? []).forEach((p, i) => {
      if (!p.nodePort && !allocatesNodePorts(spec)) return;
      if (!p.nodePort) {
        asks.add({ next: true }, (port) => (p.nodePort = port), nextRefused);
      } else if (!oldHeld.includes(p.nodePort) && !asked.has(p.nodePort)) {
        asks.add({ port: p.nodePort }, () => {}, portRefused(svc, i));
        asked.add(p.nodePort);
      }
    });
  }
  const needed = needsHealthCheck(before);
  const needs = needsHealthCheck(spec);
  if (!needed && needs) askHealthCheck(asks, spec);
  if (needed && !needs && before.healthCheckNodePort) released.add(before.healthCheckNodePort);
  const taken = await asks.take(allocator, dryRun);
  if (hasNodePorts(spec)) {
    const nowHeld = heldNodePorts(svc);
    for (const port of oldHeld) if (!nowHeld.includes(port)) released.add(port);
  }
  return settle(allocator, dryRun, taken, [...released]);
}
