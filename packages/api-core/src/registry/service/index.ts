import { at, str, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost, RequestContext, ResourceEntry, Strategy } from '@kapi/apiserver';
import { clusterIPUpdateErrors, keepAllocated, serviceAllocation } from './allocation.js';
import { bootstrapKubernetesService, type ApiServerEndpoint } from './bootstrap.js';
import { parseCidr, parsePortRange } from './cidr.js';
import { createIPAllocator, type ServiceRef } from './ip-allocator.js';
import { heldNodePorts } from './node-port-ops.js';
import { createNodePortAllocator } from './node-ports.js';
import { validateService, validateServiceUpdate } from './validation.js';

export type { ApiServerEndpoint } from './bootstrap.js';

export interface ServiceOptions {
  /** `--service-cluster-ip-range`: the IPv4 range cluster IPs come from; `10.0.0.0/24` by default. */
  clusterIPRange?: string;
  /** `--service-node-port-range`; `30000-32767` by default. */
  nodePortRange?: string;
  /** The server's own address and port, for the `kubernetes` Service's Endpoints; none are made without it. */
  apiServerEndpoint?: ApiServerEndpoint;
  /**
   * How often the repair loops run (ms; 30 s by default): node ports no Service holds are given back after three
   * runs, addresses of deleted Services after one.
   */
  repairIntervalMs?: number;
}

/** An IPAddress whose Service no longer holds it is given back after this long (a create may be under way). */
const RELEASE_GRACE_MS = 5_000;
const REPAIR_EVERY_MS = 30_000;

/**
 * Services as kube's pkg/registry/core/service: the strategy (status, patchAllocatedValues, the cluster IP that
 * never changes, the allocations) and the server-side parts an `install` wires per server: the allocators, the
 * repair loop that gives back addresses of deleted Services, and the `kubernetes` Service at start.
 */
export function createServices(options: ServiceOptions = {}) {
  const cidr = parseCidr(options.clusterIPRange ?? '10.0.0.0/24');
  const nodePorts = parsePortRange(options.nodePortRange ?? '30000-32767');
  // Per server (a plugin may be installed in several): the allocations of its services entry.
  const allocations = new WeakMap<ResourceEntry, Pick<Strategy, 'beginCreate' | 'beginUpdate' | 'afterDelete'>>();
  const of = (ctx: RequestContext) => allocations.get(ctx.entry);

  const strategy: Strategy = {
    prepareForCreate(obj) {
      obj.status = { loadBalancer: {} };
    },
    prepareForUpdate: keepAllocated,
    validate: validateService,
    // A status update cannot change the spec (kube's ValidateServiceStatusUpdate checks the load balancer status only).
    validateUpdate: (obj, old, ctx) => (ctx.subresource ? [] : [...clusterIPUpdateErrors(obj, old), ...validateServiceUpdate(obj, old)]),
    returnDeletedObject: true,
    beginCreate: async (obj, ctx) => of(ctx)?.beginCreate?.(obj, ctx),
    beginUpdate: async (obj, old, ctx) => of(ctx)?.beginUpdate?.(obj, old, ctx),
    afterDelete: async (obj, ctx) => of(ctx)?.afterDelete?.(obj, ctx),
  };

  function install(host: PluginHost): void {
    const services = host.registry.lookup('', 'v1', 'services');
    if (!services) return;
    const ipEntry = host.registry.byKind('networking.k8s.io', 'v1', 'IPAddress');
    if (!ipEntry) host.log(1, 'networking.k8s.io/v1 IPAddress is not served: Services get no cluster IPs');
    const ips = ipEntry ? createIPAllocator(host, cidr, ipEntry) : undefined;
    const ports = createNodePortAllocator(host, nodePorts);
    allocations.set(services, serviceAllocation(ips, ports, (message) => host.log(1, message)));

    const ctx = host.systemContext(services);
    /** kube's repair controllers: the addresses and node ports stored Services hold, recorded again, the rest given back. */
    const repairer = (what: string, run: (items: KubeObject[]) => Promise<void>) => {
      let running: Promise<void> | undefined;
      return () =>
        (running ??= (async () => run((await host.store.list(ctx)).items))()
          .catch((err: Error) => host.log(1, `service ${what} repair: ${err.message}`))
          .finally(() => (running = undefined)));
    };
    const repairIPs = repairer('IP', async (items) => {
      const held = new Map<string, ServiceRef>();
      for (const svc of items) {
        const ip = str(at(svc, 'spec.clusterIP'));
        if (ip && ip !== 'None') held.set(ip, { namespace: str(svc.metadata?.namespace), name: str(svc.metadata?.name) });
      }
      await ips?.repair(held, RELEASE_GRACE_MS);
    });
    const repairPorts = repairer('node port', async (items) => {
      const outside = await ports.repair(new Set(items.flatMap(heldNodePorts)));
      for (const port of outside) host.log(1, `the node port ${port} is not within the port range ${ports.rangeText}; please recreate the Service that holds it`);
    });
    let timer: NodeJS.Timeout | undefined;
    host.onStart(async () => {
      // Before the first request: a store written before node ports were recorded (or that lost the record) gets them.
      await repairPorts();
      if (ips) await bootstrapKubernetesService(host, cidr, ips.firstAddress, options.apiServerEndpoint);
      timer = setInterval(() => void Promise.all([repairIPs(), repairPorts()]), options.repairIntervalMs ?? REPAIR_EVERY_MS);
      timer.unref();
    });
    if (ips) host.onObjectsChange(services, () => void repairIPs());
    host.onStop(async () => {
      clearInterval(timer);
      await Promise.all([repairIPs(), repairPorts()]);
    });
  }

  return { strategy, install };
}
