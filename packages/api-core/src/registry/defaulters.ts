import { cloneJson, isObj, type Obj, type TypeDefaulter } from '@kapi/apimachinery';
import { limitRangeItemDefaulter } from './limit-range.js';

// kube 1.33's defaulting functions of core/v1 types that depend on other fields (pkg/apis/core/v1/defaults.go),
// by field-tree type. Constant defaults are in the schemas (codegen/src/import/defaults.ts).

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/**
 * The tag kube's parsers.ParseImageName finds: after the last `:` of the name (past its last `/`), `latest` when
 * there is neither a tag nor a digest, none when the reference does not parse (empty, upper case in the path).
 */
export function imageTag(image: string): string | undefined {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  if (!name || /\s/.test(image)) return undefined;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const tag = colon > slash ? name.slice(colon + 1) : '';
  const repository = colon > slash ? name.slice(0, colon) : name;
  // The registry host may have upper case; the path may not.
  const firstSlash = repository.indexOf('/');
  const path = firstSlash >= 0 && /[.:]|^localhost$/.test(repository.slice(0, firstSlash)) ? repository.slice(firstSlash + 1) : repository;
  if (!path || /[A-Z]/.test(path)) return undefined;
  if (!tag && at < 0) return 'latest';
  return tag;
}

/** SetDefaults_Container: Always for `:latest` or an untagged image, else IfNotPresent. */
const container: TypeDefaulter = (c) => {
  if (c.imagePullPolicy) return;
  c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
};

/**
 * kube's v1 PodSpec conversion: the deprecated `serviceAccount` names the account when `serviceAccountName` does not,
 * and is written back as an alias of it (so a pod or template read back has both, or neither).
 */
export function aliasServiceAccount(spec: Obj): void {
  if (!spec.serviceAccountName && typeof spec.serviceAccount === 'string' && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
}

/**
 * SetDefaults_PodSpec's part that depends on hostNetwork: container ports get hostPort = containerPort; and the
 * service account alias of kube's conversion.
 */
const podSpec: TypeDefaulter = (spec) => {
  aliasServiceAccount(spec);
  if (spec.hostNetwork !== true) return;
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    for (const port of objects(c.ports)) if (!port.hostPort) port.hostPort = port.containerPort;
  }
};

/** SetDefaults_Pod: service links on, and each container's requests taken from its limits where it set none. */
const pod: TypeDefaulter = (p) => {
  if (!isObj(p.spec)) return;
  const spec = p.spec;
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    if (!isObj(c.resources) || !isObj(c.resources.limits)) continue;
    const requests: Obj = isObj(c.resources.requests) ? c.resources.requests : (c.resources.requests = {});
    for (const [name, quantity] of Object.entries(c.resources.limits)) if (!Object.hasOwn(requests, name)) requests[name] = quantity;
  }
};

/** SetDefaults_Service: affinity config, target ports, traffic policies and node ports by type. */
const serviceSpec: TypeDefaulter = (spec) => {
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const config = spec.sessionAffinityConfig as { clientIP?: { timeoutSeconds?: number } } | undefined;
    if (config?.clientIP?.timeoutSeconds === undefined) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const port of objects(spec.ports)) {
    if (!port.protocol) port.protocol = 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  const type = spec.type;
  const external = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
  if (external && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer')) spec.internalTrafficPolicy = 'Cluster';
  if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
};

/** SetDefaults_NodeStatus: allocatable is the capacity until the kubelet says otherwise. */
const nodeStatus: TypeDefaulter = (status) => {
  if (status.allocatable === undefined && isObj(status.capacity)) status.allocatable = cloneJson(status.capacity);
};

/** SetDefaults_ReplicationController: the selector and the labels default to the pod template's labels. */
const replicationController: TypeDefaulter = (rc) => {
  const spec = isObj(rc.spec) ? rc.spec : undefined;
  const labels = spec && isObj(spec.template) && isObj(spec.template.metadata) ? spec.template.metadata.labels : undefined;
  if (!spec || !isObj(labels)) return;
  if (!isObj(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
  const meta = isObj(rc.metadata) ? rc.metadata : (rc.metadata = {});
  if (!isObj(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
};

/**
 * The core group's defaulters, by field-tree type. Other groups' plugins include them too: a Deployment's pod
 * template is a core PodSpec, defaulted wherever it appears.
 */
export const CORE_DEFAULTERS: Record<string, TypeDefaulter> = {
  'v1/Container': container,
  'v1/EphemeralContainer': container,
  'v1/PodSpec': podSpec,
  'v1/Pod': pod,
  'v1/ServiceSpec': serviceSpec,
  'v1/NodeStatus': nodeStatus,
  'v1/ReplicationController': replicationController,
  'v1/LimitRangeItem': limitRangeItemDefaulter,
};
