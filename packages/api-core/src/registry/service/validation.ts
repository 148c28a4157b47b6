import { isIP } from 'node:net';
import {
  GoValue,
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  goQuote,
  goStringSlice,
  isDNS1123Label,
  isPortName,
  str,
  isDNS1123Subdomain,
  isLabelKey,
  validateLabels,
  type FieldError,
  type KubeObject,
} from '@kapi/apimachinery';
import { PORT_PROTOCOLS, portNumberErrors } from '../ports.js';
import { INVALID_IP, validateNonSpecialIP } from './special-ips.js';

// kube 1.33's ValidateService (pkg/apis/core/validation/validation.go), for what a Service holds when the strategy
// validates it: after defaulting, before the cluster IP and node ports are allocated.

type Port = { name?: unknown; protocol?: unknown; port?: unknown; targetPort?: unknown; nodePort?: unknown; appProtocol?: unknown };
type Spec = Record<string, unknown> & { ports?: Port[] };

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const MAX_AFFINITY_SECONDS = 86400;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = str;

/** The cluster IPs a Service asks for: `clusterIPs`, else `clusterIP` (kube's strategy normalizes one into the other). */
const clusterIPs = (spec: Spec): string[] => {
  const ips = list(spec.clusterIPs).map(text);
  return ips.length ? ips : text(spec.clusterIP) ? [text(spec.clusterIP)] : [];
};
const isHeadless = (spec: Spec) => {
  const ips = clusterIPs(spec);
  return ips.length === 1 && ips[0] === 'None';
};

/** A ServicePort key as Go prints it with %#v (the Duplicate error of two ports with one protocol and number). */
const portKey = (protocol: string, port: unknown) =>
  new GoValue(
    `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${Number(port) || 0}, ` +
      'TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  );

function validatePort(p: Port, requireName: boolean, names: Set<string>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(p.name);
  if (requireName && !name) errs.push(fieldRequired(`${field}.name`));
  else if (name) {
    for (const msg of isDNS1123Label(name)) errs.push(fieldInvalid(`${field}.name`, name, msg));
    if (names.has(name)) errs.push(fieldDuplicate(`${field}.name`, name));
    else names.add(name);
  }
  errs.push(...portNumberErrors(`${field}.port`, p.port));
  const protocol = text(p.protocol);
  if (!protocol) errs.push(fieldRequired(`${field}.protocol`));
  else if (!PORT_PROTOCOLS.includes(protocol)) errs.push(fieldNotSupported(`${field}.protocol`, protocol, PORT_PROTOCOLS));
  if (typeof p.targetPort === 'string') {
    for (const msg of isPortName(p.targetPort)) errs.push(fieldInvalid(`${field}.targetPort`, p.targetPort, msg));
  } else errs.push(...portNumberErrors(`${field}.targetPort`, p.targetPort));
  if (typeof p.appProtocol === 'string') {
    for (const msg of isLabelKey(p.appProtocol)) errs.push(fieldInvalid(`${field}.appProtocol`, p.appProtocol, msg));
  }
  return errs;
}

const goStrings = (values: string[]) => new GoValue(goStringSlice(values));

/**
 * kube's ValidateServiceClusterIPsRelatedFields (ExternalName's are checked by the caller). `clusterIP` and
 * `clusterIPs` are taken as kube's strategy leaves them (either one fills the other); both given must agree.
 */
function validateClusterIPFields(spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const given = list(spec.clusterIPs).map(text);
  if (text(spec.clusterIP) && given.length && given[0] !== text(spec.clusterIP)) {
    errs.push(fieldInvalid('spec.clusterIPs', goStrings(given), 'first value must match `clusterIP`'));
  }
  const seen = new Set<string>();
  list(spec.ipFamilies).forEach((family, i) => {
    if (!IP_FAMILIES.includes(text(family))) errs.push(fieldNotSupported(`spec.ipFamilies[${i}]`, family, IP_FAMILIES));
    if (seen.has(text(family))) errs.push(fieldDuplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(text(family));
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !IP_FAMILY_POLICIES.includes(text(policy))) {
    errs.push(fieldNotSupported('spec.ipFamilyPolicy', policy, IP_FAMILY_POLICIES));
  }
  const ips = clusterIPs(spec);
  let invalid = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalid = true;
        errs.push(fieldInvalid('spec.clusterIPs', goStrings(ips), "'None' must be the first and only value"));
      }
      return;
    }
    if (!isIP(ip)) {
      invalid = true;
      errs.push(fieldInvalid(`spec.clusterIPs[${i}]`, ip, INVALID_IP));
    }
  });
  if (ips.length > 2) errs.push(fieldInvalid('spec.clusterIPs', goStrings(ips), 'may only hold up to 2 values'));
  if (invalid) return errs;
  if (ips.length > 1 && new Set(ips.map((ip) => isIP(ip))).size !== ips.length) {
    errs.push(fieldInvalid('spec.clusterIPs', goStrings(ips), 'may specify no more than one IP for each IP family'));
  }
  const families = list(spec.ipFamilies).map(text);
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      if (i >= families.length) return;
      if (families[i] === 'IPv4' && isIP(ip) === 6) errs.push(fieldInvalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && isIP(ip) !== 6) errs.push(fieldInvalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** kube's validateClientIPAffinityConfig. */
function validateAffinity(spec: Spec): FieldError[] {
  const affinity = spec.sessionAffinity;
  if (affinity === undefined || affinity === '') return [fieldRequired('spec.sessionAffinity')];
  if (!SESSION_AFFINITIES.includes(text(affinity))) return [fieldNotSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES)];
  const config = spec.sessionAffinityConfig as { clientIP?: { timeoutSeconds?: unknown } } | undefined | null;
  if (affinity === 'None') {
    return config ? [fieldForbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None')] : [];
  }
  const when = 'when session affinity type is ClientIP';
  if (!config) return [fieldRequired('spec.sessionAffinityConfig', when)];
  if (!config.clientIP) return [fieldRequired('spec.sessionAffinityConfig.clientIP', when)];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined || timeout === null) return [fieldRequired('spec.sessionAffinityConfig.clientIP.timeoutSeconds', when)];
  if (typeof timeout !== 'number' || timeout <= 0 || timeout > MAX_AFFINITY_SECONDS) {
    return [fieldInvalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** Whether kube gives the Service a health-check node port: a LoadBalancer that keeps traffic on the local node. */
export const needsHealthCheck = (spec: object): boolean => {
  const { type, externalTrafficPolicy } = spec as { type?: unknown; externalTrafficPolicy?: unknown };
  return type === 'LoadBalancer' && externalTrafficPolicy === 'Local';
};

/**
 * kube's validateServiceExternalTrafficPolicy, validateServiceInternalTrafficFieldsValue and
 * validateServiceTrafficDistribution (a health-check port is allocated after validation here, so none is required).
 */
function validateTrafficPolicies(spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const external = spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && list(spec.externalIPs).length > 0);
  const policy = spec.externalTrafficPolicy;
  if (external) {
    if (policy === undefined || policy === '') errs.push(fieldRequired('spec.externalTrafficPolicy'));
    else if (!TRAFFIC_POLICIES.includes(text(policy))) errs.push(fieldNotSupported('spec.externalTrafficPolicy', policy, TRAFFIC_POLICIES));
  } else if (policy !== undefined && policy !== '') {
    errs.push(fieldInvalid('spec.externalTrafficPolicy', policy, 'may only be set for externally-accessible services'));
  }
  const health = spec.healthCheckNodePort;
  if (health !== undefined && health !== 0) {
    if (!needsHealthCheck(spec)) errs.push(fieldInvalid('spec.healthCheckNodePort', health, 'may only be set when `type` is \'LoadBalancer\' and `externalTrafficPolicy` is \'Local\''));
    else errs.push(...portNumberErrors('spec.healthCheckNodePort', health));
  }
  const internal = spec.internalTrafficPolicy;
  if (internal !== undefined && internal !== null && !TRAFFIC_POLICIES.includes(text(internal))) {
    errs.push(fieldNotSupported('spec.internalTrafficPolicy', internal, TRAFFIC_POLICIES));
  }
  const distribution = spec.trafficDistribution;
  if (distribution !== undefined && distribution !== null && distribution !== 'PreferClose') {
    errs.push(fieldNotSupported('spec.trafficDistribution', distribution, ['PreferClose']));
  }
  return errs;
}

const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

/** kube's IsValidCIDR (ParseCIDRSloppy: an address and a prefix length its family allows). */
function isCidr(value: string): boolean {
  const [ip, bits, ...rest] = value.split('/');
  const family = isIP(ip ?? '');
  return family !== 0 && rest.length === 0 && /^\d{1,3}$/.test(bits ?? '') && Number(bits) <= (family === 6 ? 128 : 32);
}

/** The load balancer source ranges of the field, or else of the annotation, only on a LoadBalancer. */
function validateSourceRanges(svc: KubeObject, spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const cidr = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
  const ranges = list(spec.loadBalancerSourceRanges);
  const annotation = (svc.metadata?.annotations as Record<string, unknown> | undefined)?.[SOURCE_RANGES_ANNOTATION];
  if (ranges.length) {
    const field = 'spec.LoadBalancerSourceRanges';
    if (spec.type !== 'LoadBalancer') errs.push(fieldForbidden(field, "may only be used when `type` is 'LoadBalancer'"));
    // Values may be space-padded (kube's historical accident, kept).
    ranges.forEach((r, i) => {
      const value = text(r).trim();
      if (!isCidr(value)) errs.push(fieldInvalid(`${field}[${i}]`, value, cidr));
    });
  } else if (typeof annotation === 'string') {
    const field = `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
    if (spec.type !== 'LoadBalancer') errs.push(fieldForbidden(field, "may only be used when `type` is 'LoadBalancer'"));
    const value = annotation.trim();
    if (value) for (const part of value.split(',').map((v) => v.trim())) if (!isCidr(part)) errs.push(fieldInvalid(field, part, cidr));
  }
  return errs;
}

/** kube's ValidateService for the spec (the object's metadata is the server's concern). */
export function validateService(svc: KubeObject): FieldError[] {
  const spec = (svc.spec ?? {}) as Spec;
  const errs: FieldError[] = [];
  const ports = list(spec.ports) as Port[];
  const type = spec.type;
  if (!ports.length && !isHeadless(spec) && type !== 'ExternalName') errs.push(fieldRequired('spec.ports'));
  if ((type === 'LoadBalancer' || type === 'NodePort') && isHeadless(spec)) {
    errs.push(fieldInvalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type === 'ExternalName') {
    if (clusterIPs(spec).length) errs.push(fieldForbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (list(spec.ipFamilies).length) errs.push(fieldForbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) errs.push(fieldForbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    // The name (a CNAME) may end in a dot, fully qualified.
    const cname = text(spec.externalName).replace(/\.$/, '');
    if (!cname) errs.push(fieldRequired('spec.externalName'));
    else for (const msg of isDNS1123Subdomain(cname)) errs.push(fieldInvalid('spec.externalName', cname, msg));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validatePort(p ?? {}, ports.length > 1, names, `spec.ports[${i}]`)));
  errs.push(...validateLabels(spec.selector, 'spec.selector'));
  errs.push(...validateAffinity(spec));
  if (type !== 'ExternalName') errs.push(...validateClusterIPFields(spec));
  list(spec.externalIPs).forEach((ip, i) => errs.push(...validateNonSpecialIP(text(ip), `spec.externalIPs[${i}]`)));
  if (type === undefined || type === '') errs.push(fieldRequired('spec.type'));
  else if (!SERVICE_TYPES.includes(text(type))) errs.push(fieldNotSupported('spec.type', type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p?.nodePort) errs.push(fieldForbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((p, i) => {
    const protocol = text(p?.protocol);
    if (p?.nodePort) {
      const key = `${protocol}/${String(p.nodePort)}`;
      if (nodePorts.has(key)) errs.push(fieldDuplicate(`spec.ports[${i}].nodePort`, p.nodePort));
      nodePorts.add(key);
    }
    const key = `${protocol}/${String(p?.port)}`;
    if (keys.has(key)) errs.push(fieldDuplicate(`spec.ports[${i}]`, portKey(protocol, p?.port)));
    keys.add(key);
  });
  errs.push(...validateSourceRanges(svc, spec));
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(fieldForbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  const lbClass = spec.loadBalancerClass;
  if (lbClass !== undefined && lbClass !== null) {
    if (type !== 'LoadBalancer') errs.push(fieldForbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
    else for (const msg of isLabelKey(text(lbClass))) errs.push(fieldInvalid('spec.loadBalancerClass', lbClass, msg));
  }
  errs.push(...validateTrafficPolicies(spec));
  return errs;
}

/**
 * kube's ValidateServiceUpdate beyond ValidateService: IP families, the load balancer class and the health-check
 * node port do not change once set (the cluster IPs are `clusterIPUpdateErrors`').
 */
export function validateServiceUpdate(svc: KubeObject, old: KubeObject): FieldError[] {
  const [now, before] = [(svc.spec ?? {}) as Spec, (old.spec ?? {}) as Spec];
  const errs: FieldError[] = [];
  const external = now.type === 'ExternalName' || before.type === 'ExternalName';
  if (!external && !isHeadless(now) && !isHeadless(before)) {
    const [a, b] = [list(before.ipFamilies).map(text), list(now.ipFamilies).map(text)];
    const changed = a.length === b.length ? a.some((f, i) => f !== b[i]) : a.length > 0 && b.length > 0 && a[0] !== b[0];
    if (changed) errs.push(fieldInvalid('spec.ipFamilies[0]', new GoValue(goStringSlice(b, 'core.IPFamily')), 'may not change once set'));
  }
  if (now.type === 'LoadBalancer' && before.type === 'LoadBalancer' && (now.loadBalancerClass ?? null) !== (before.loadBalancerClass ?? null)) {
    errs.push(fieldInvalid('spec.loadBalancerClass', now.loadBalancerClass ?? null, 'may not change once set'));
  }
  if (needsHealthCheck(now) && needsHealthCheck(before) && now.healthCheckNodePort !== before.healthCheckNodePort) {
    errs.push(fieldForbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return [...errs, ...validateService(svc)];
}
