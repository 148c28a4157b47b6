import { isIP } from 'node:net';
import { GoValue, at, goStringSlice, newInvalid, str, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { RequestContext, Strategy, WriteFinisher } from '@kapi/apiserver';
import { AllocationError, type IPAllocator, type ServiceRef } from './ip-allocator.js';
import { allocateOnCreate, allocateOnUpdate, heldNodePorts, type NodePortOperation } from './node-port-ops.js';
import type { NodePortAllocator } from './node-ports.js';
import { needsHealthCheck } from './validation.js';

type Spec = {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  selector?: Record<string, string>;
  allocateLoadBalancerNodePorts?: boolean;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  ports?: { port?: number; protocol?: string; nodePort?: number }[];
};
type Service = KubeObject & { spec?: Spec };

const NONE = 'None';
const specOf = (svc: KubeObject): Spec => (svc.spec ??= {}) as Spec;
const wantsClusterIP = (spec: Spec) => spec.type !== 'ExternalName';
const wantsNodePorts = (spec: Spec) =>
  spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);

/**
 * kube's patchAllocatedValues: what an update leaves out of an allocated Service (a PUT of the manifest the user
 * applied, say) keeps its cluster IPs and node ports; the ports match by port number and protocol.
 */
export function keepAllocated(svc: KubeObject, old: KubeObject): void {
  const spec = specOf(svc);
  const before = (old as Service).spec ?? {};
  if (wantsClusterIP(spec) && before.clusterIP && !spec.clusterIP && !spec.clusterIPs?.length) {
    spec.clusterIP = before.clusterIP;
    if (before.clusterIPs) spec.clusterIPs = [...before.clusterIPs];
    if (before.ipFamilies && !spec.ipFamilies) spec.ipFamilies = [...before.ipFamilies];
    if (before.ipFamilyPolicy && !spec.ipFamilyPolicy) spec.ipFamilyPolicy = before.ipFamilyPolicy;
  }
  if (wantsNodePorts(spec)) {
    for (const port of spec.ports ?? []) {
      if (port.nodePort) continue;
      const match = (before.ports ?? []).find((p) => p.port === port.port && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'));
      if (match?.nodePort) port.nodePort = match.nodePort;
    }
  }
  // The health-check port stays while the Service still needs one; it goes when it no longer does.
  if (needsHealthCheck(spec) && needsHealthCheck(before) && !spec.healthCheckNodePort && before.healthCheckNodePort) {
    spec.healthCheckNodePort = before.healthCheckNodePort;
  } else if (!needsHealthCheck(spec) && spec.healthCheckNodePort === before.healthCheckNodePort) delete spec.healthCheckNodePort;
}

/** kube's ValidateServiceUpdate for allocated addresses: a set cluster IP does not change. */
export function clusterIPUpdateErrors(svc: KubeObject, old: KubeObject): FieldError[] {
  const [now, before] = [specOf(svc), (old as Service).spec ?? {}];
  if (!before.clusterIP || !wantsClusterIP(now) || !wantsClusterIP(before)) return [];
  if (now.clusterIP === before.clusterIP) return [];
  return [{ type: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', message: `${goStringSlice(now.clusterIPs ?? [])}: may not change once set` }];
}

/**
 * The allocations of kube's Service REST storage (pkg/registry/core/service/storage/alloc.go), as a strategy's
 * beginCreate, beginUpdate and afterDelete: a Service gets a cluster IP from `--service-cluster-ip-range`
 * (`clusterIP: None` stays headless, ExternalName gets none) and its ports node ports from
 * `--service-node-port-range` when its type needs them; an address or port another Service holds, or one outside the
 * range, is kube's 422. A dry run reserves nothing; a write that fails gives back what it took, one that succeeds
 * what it no longer holds, and a delete all of it.
 */
export function serviceAllocation(
  ips: IPAllocator | undefined,
  ports: NodePortAllocator,
  log: (message: string) => void,
): Pick<Strategy, 'beginCreate' | 'beginUpdate' | 'afterDelete'> {
  const refOf = (svc: KubeObject, ctx: RequestContext): ServiceRef => ({ namespace: ctx.namespace || str(at(svc, 'metadata.namespace')), name: str(at(svc, 'metadata.name')) });
  const allocate = async (svc: KubeObject, old: KubeObject | undefined, ctx: RequestContext): Promise<WriteFinisher> => {
    const self = refOf(svc, ctx);
    const spec = specOf(svc);
    let madeIP: string | undefined;
    if (ips && wantsClusterIP(spec)) {
      const outcome = await allocateClusterIP(ips, spec, self, ctx.dryRun);
      if (typeof outcome !== 'string') throw newInvalid({ group: '', kind: 'Service' }, self.name, outcome);
      madeIP = outcome;
    }
    const giveBackIP = async () => {
      if (madeIP && ips && !ctx.dryRun) await ips.giveBack(madeIP, self);
    };
    let nodePorts: NodePortOperation;
    try {
      nodePorts = old ? await allocateOnUpdate(ports, svc, old, ctx.dryRun) : await allocateOnCreate(ports, svc, ctx.dryRun);
    } catch (err) {
      await giveBackIP();
      throw err;
    }
    return async (succeeded) => {
      if (succeeded) return nodePorts.commit();
      await nodePorts.revert();
      await giveBackIP();
    };
  };
  return {
    beginCreate: (obj, ctx) => allocate(obj, undefined, ctx),
    beginUpdate: (obj, old, ctx) => allocate(obj, old, ctx),
    // kube's releaseAllocatedResources: the address and the node ports are free for others at once.
    afterDelete: async (obj, ctx) => {
      const self = refOf(obj, ctx);
      const ip = specOf(obj).clusterIP;
      await Promise.all([
        ips && ip && ip !== NONE ? ips.giveBack(ip, self) : undefined,
        ports.release(heldNodePorts(obj)),
        // What is not given back now the repair loops give back later, as in kube.
      ]).catch((err: Error) => log(`releasing what Service ${self.namespace}/${self.name} held: ${err.message}`));
    },
  };
}

/**
 * kube's initIPFamilyFields (pkg/registry/core/service/storage/alloc.go) on a cluster of one family (IPv4): the
 * policy and families a Service gets, or the errors of what it asks for that this cluster cannot give. A headless
 * Service without a selector is the exception kube makes: RequireDualStack and both families unless it asks for
 * SingleStack (its endpoints are the user's, of any family).
 */
function ipFamilyErrors(spec: Spec, headless: boolean): FieldError[] {
  const families = spec.ipFamilies ?? [];
  const errs: FieldError[] = [];
  if (spec.ipFamilyPolicy === 'SingleStack' && families.length === 2) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: 'SingleStack', message: "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified" });
  }
  if (errs.length) return errs;
  if (headless && !Object.keys(spec.selector ?? {}).length) {
    spec.ipFamilyPolicy ??= 'RequireDualStack';
    spec.ipFamilies = families.length ? [...families] : ['IPv4'];
    if (spec.ipFamilies.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') spec.ipFamilies.push(spec.ipFamilies[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: 'RequireDualStack', message: 'this cluster is not configured for dual-stack services' });
  }
  if (families.length > 1) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilies', badValue: new GoValue(goStringSlice(families, 'core.IPFamily')), message: 'when multiple IP families are specified, the cluster must be configured for dual-stack' });
  }
  families.forEach((family, i) => {
    if (family !== 'IPv4') errs.push({ type: 'FieldValueInvalid', field: `spec.ipFamilies[${i}]`, badValue: family, message: `${family} is not configured on this cluster` });
  });
  return errs;
}

/** Gives `spec` its cluster IP: the address it reserved fresh, '' when it reserved none, or kube's field errors. */
async function allocateClusterIP(ips: IPAllocator, spec: Spec, self: ServiceRef, dryRun: boolean): Promise<string | FieldError[]> {
  const requested = spec.clusterIP || spec.clusterIPs?.[0] || '';
  if (requested && requested !== NONE && isIP(requested) === 6) {
    return [{ type: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', badValue: new GoValue(goStringSlice([requested])), message: 'IPv6 is not configured on this cluster' }];
  }
  const familyErrors = ipFamilyErrors(spec, requested === NONE);
  if (familyErrors.length) return familyErrors;
  if (requested === NONE) {
    Object.assign(spec, { clusterIP: NONE, clusterIPs: [NONE], ipFamilies: spec.ipFamilies ?? ['IPv4'], ipFamilyPolicy: spec.ipFamilyPolicy ?? 'SingleStack' });
    return '';
  }
  let ip = requested;
  let made = false;
  try {
    if (requested) made = await ips.allocateSpecific(requested, self, dryRun);
    else {
      ip = await ips.allocateNext(self, dryRun);
      made = true;
    }
  } catch (err) {
    if (!(err instanceof AllocationError)) throw err;
    const detail = requested ? `failed to allocate IP ${requested}: ${err.message}` : `failed to allocate a serviceIP: ${err.message}`;
    return [{ type: 'FieldValueInvalid', field: 'spec.clusterIPs', message: `${goStringSlice(requested ? [requested] : [])}: ${detail}` }];
  }
  Object.assign(spec, { clusterIP: ip, clusterIPs: [ip], ipFamilies: ['IPv4'], ipFamilyPolicy: spec.ipFamilyPolicy ?? 'SingleStack' });
  return made ? ip : '';
}
