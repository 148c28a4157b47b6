import { asObjects, isObj, parseQuantity, str, type Obj } from '@kapi/apimachinery';
import { MAX_RECORDED_WARNINGS } from '@kapi/apiserver';
import { APPARMOR_CONTAINER, SECCOMP_CONTAINER, SECCOMP_POD } from './pod-annotations.js';
import { containersWithPath } from './pod-containers.js';

// The warnings kube 1.33 returns (`Warning` headers, kubectl prints them) for a Pod or a pod template
// (pkg/api/pod/warnings.go): deprecated node labels, annotations and volume plugins, paths that collide with a
// projected service-account token, repeated host aliases, pull secrets, environment variables and ports, fractional
// byte quantities, seccomp and AppArmor annotations without their fields, a negative grace period and pod affinity
// terms without a selector. Map keys are walked in sorted order (Go's are random).

/** kube's deprecated node labels (pkg/api/node), with what to use instead: pods' and PVs' node affinity warn of them. */
export const DEPRECATED_NODE_LABELS: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

const DEPRECATED_ANNOTATIONS: [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

const DEPRECATED_VOLUMES: [string, string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];
/** The field names kube's messages use where they differ from the JSON names. */
const VOLUME_FIELD: Record<string, string> = { storageos: 'storageOS' };

const NULL_SELECTOR = 'a null labelSelector results in matching no pod';
/** At most this many port pairs are compared (a pod with 3,000 ports of one container port has 4.5 million). */
const PAIR_BUDGET = 5_000_000;

/** Quantity.MilliValue() % 1000 != 0: a byte quantity that is not a whole number of bytes. */
function fractionalBytes(q: unknown): boolean {
  if (typeof q !== 'string' && typeof q !== 'number') return false;
  try {
    const { n, e } = parseQuantity(String(q)).value;
    const shift = e + 3;
    // MilliValue rounds up.
    const milli = shift >= 0 ? n * 10n ** BigInt(shift) : (n + 10n ** BigInt(-shift) - 1n) / 10n ** BigInt(-shift);
    return milli % 1000n !== 0n;
  } catch {
    return false;
  }
}

/** A port as Go's `%+v` prints kube's internal ContainerPort. */
const goPort = (p: Obj) => `{Name:${str(p.name)} HostPort:${Number(p.hostPort ?? 0)} ContainerPort:${Number(p.containerPort ?? 0)} Protocol:${str(p.protocol)} HostIP:${str(p.hostIP)}}`;

/**
 * kube's warningsForPodSpecAndMeta: `prefix` is undefined for a Pod (paths start at `spec`, `metadata`) and the
 * template's path for a pod template (`spec.template`); `isTemplate` adds the AppArmor annotation warning, which kube
 * gives Pods another way.
 */
function warningsFor(spec: Obj, meta: Obj, prefix: string | undefined): string[] {
  const at = (path: string) => (prefix ? `${prefix}.${path}` : path);
  const specPath = at('spec');
  const annotationsPath = at('metadata.annotations');
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const warnings: string[] = [];
  const labelWarning = (key: string, path: string) => {
    const msg = DEPRECATED_NODE_LABELS[key];
    if (msg) warnings.push(`${path}: ${key} is ${msg}`);
  };
  const nodeSelectorTerm = (term: unknown, path: string) =>
    asObjects(isObj(term) ? term.matchExpressions : undefined).forEach((e, i) => labelWarning(str(e.key), `${path}.matchExpressions[${i}].key`));

  if (isObj(spec.nodeSelector)) {
    for (const key of Object.keys(spec.nodeSelector).sort()) if (DEPRECATED_NODE_LABELS[key]) warnings.push(`${specPath}.nodeSelector[${key}]: ${DEPRECATED_NODE_LABELS[key]}`);
  }
  const affinity = isObj(spec.affinity) ? spec.affinity : {};
  if (isObj(affinity.nodeAffinity)) {
    const na = affinity.nodeAffinity;
    const required = isObj(na.requiredDuringSchedulingIgnoredDuringExecution) ? na.requiredDuringSchedulingIgnoredDuringExecution : undefined;
    asObjects(required?.nodeSelectorTerms).forEach((t, i) =>
      nodeSelectorTerm(t, `${specPath}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`),
    );
    asObjects(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
      nodeSelectorTerm(t.preference, `${specPath}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`),
    );
  }
  asObjects(spec.topologySpreadConstraints).forEach((t, i) => {
    labelWarning(str(t.topologyKey), `${specPath}.topologySpreadConstraints[${i}].topologyKey`);
    if (!isObj(t.labelSelector)) warnings.push(`${specPath}.topologySpreadConstraints[${i}].labelSelector: ${NULL_SELECTOR}`);
  });

  for (const [key, message] of DEPRECATED_ANNOTATIONS) if (key in annotations) warnings.push(`${annotationsPath}[${key}]: ${message}`);

  const volumes = asObjects(spec.volumes);
  volumes.forEach((v, i) => {
    for (const [source, message] of DEPRECATED_VOLUMES) {
      if (v[source] !== undefined && v[source] !== null) warnings.push(`${specPath}.volumes[${i}].${VOLUME_FIELD[source] ?? source}: ${message}`);
    }
  });
  // Paths of projected sources that collide with a projected service-account token's.
  const tokenPaths = new Set<string>();
  for (const v of volumes) if (isObj(v.projected)) for (const s of asObjects(v.projected.sources)) if (isObj(s.serviceAccountToken)) tokenPaths.add(str(s.serviceAccountToken.path));
  if (tokenPaths.size) {
    volumes.forEach((v, i) => {
      if (!isObj(v.projected)) return;
      const base = `${specPath}.volumes[${i}].projected.sources`;
      const dup = (path: string, field: string) => tokenPaths.has(path) && warnings.push(`${field}: has duplicated path with ServiceAccountToken ${JSON.stringify(path)}`);
      for (const s of asObjects(v.projected.sources)) {
        if (isObj(s.configMap)) asObjects(s.configMap.items).forEach((item, j) => dup(str(item.path), `${base}.configMap[${j}]`));
        if (isObj(s.secret)) asObjects(s.secret.items).forEach((item, j) => dup(str(item.path), `${base}.secrets[${j}]`));
        if (isObj(s.downwardAPI)) asObjects(s.downwardAPI.items).forEach((item, j) => dup(str(item.path), `${base}.downwardAPI[${j}]`));
        if (isObj(s.clusterTrustBundle)) dup(str(s.clusterTrustBundle.path), `${base}.ClusterTrustBundle`);
      }
    });
  }

  const ips = new Set<string>();
  asObjects(spec.hostAliases).forEach((a, i) => {
    const ip = str(a.ip);
    if (ips.has(ip)) warnings.push(`${specPath}.hostAliases[${i}].ip: duplicate ip ${JSON.stringify(ip)}`);
    ips.add(ip);
  });
  const secrets = new Set<string>();
  const pullSecrets = asObjects(spec.imagePullSecrets);
  pullSecrets.forEach((s, i) => {
    const name = str(s.name);
    if (secrets.has(name)) warnings.push(`${specPath}.imagePullSecrets[${i}].name: duplicate name ${JSON.stringify(name)}`);
    secrets.add(name);
  });
  pullSecrets.forEach((s, i) => {
    if (!str(s.name)) warnings.push(`${specPath}.imagePullSecrets[${i}].name: invalid empty name ""`);
  });

  const fractional = (q: unknown, path: string) => fractionalBytes(q) && warnings.push(`${path}: fractional byte value ${JSON.stringify(String(q))} is invalid, must be an integer`);
  const overhead = isObj(spec.overhead) ? spec.overhead : {};
  fractional(overhead.memory, `${specPath}.overhead[memory]`);
  fractional(overhead['ephemeral-storage'], `${specPath}.overhead[ephemeral-storage]`);

  const podSc = isObj(spec.securityContext) ? spec.securityContext : {};
  if (!isObj(podSc.seccompProfile) && SECCOMP_POD in annotations) {
    warnings.push(`${annotationsPath}[${SECCOMP_POD}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
  }
  const containers = containersWithPath(spec, specPath);
  for (const [c, path] of containers) {
    const sc = isObj(c.securityContext) ? c.securityContext : {};
    const name = str(c.name);
    if (!isObj(sc.seccompProfile) && `${SECCOMP_CONTAINER}${name}` in annotations) {
      warnings.push(`${annotationsPath}[${SECCOMP_CONTAINER}${name}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    if (prefix !== undefined && !isObj(podSc.appArmorProfile) && !isObj(sc.appArmorProfile) && `${APPARMOR_CONTAINER}${name}` in annotations) {
      warnings.push(`${annotationsPath}[${APPARMOR_CONTAINER}${name}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    const resources = isObj(c.resources) ? c.resources : {};
    const limits = isObj(resources.limits) ? resources.limits : {};
    const requests = isObj(resources.requests) ? resources.requests : {};
    fractional(limits.memory, `${path}.resources.limits[memory]`);
    fractional(requests.memory, `${path}.resources.requests[memory]`);
    fractional(limits['ephemeral-storage'], `${path}.resources.limits[ephemeral-storage]`);
    fractional(requests['ephemeral-storage'], `${path}.resources.requests[ephemeral-storage]`);
    const names = new Set<string>();
    asObjects(c.env).forEach((e, i) => {
      const envName = str(e.name);
      if (!names.has(envName)) {
        names.add(envName);
        return;
      }
      // A second definition may refer to the first ($(X)); one that replaces it is dropped by apply.
      const ref = `$(${envName})`;
      const value = str(e.value);
      if (isObj(e.valueFrom) || value === ref || !value.includes(ref)) {
        warnings.push(`${path}.env[${i}]: hides previous definition of ${JSON.stringify(envName)}, which may be dropped when using apply`);
      }
    });
  }

  // Every pair of ports with the same container port and protocol is compared, as kube does; a hostile pod's pairs
  // are many, so the comparisons stop once no further warning could reach the header or after PAIR_BUDGET of them.
  const seen = new Map<string, [Obj, string][]>();
  let budget = PAIR_BUDGET;
  for (const [c, path] of containers) {
    asObjects(c.ports).forEach((p, i) => {
      const field = `${path}.ports[${i}]`;
      const hostPort = Number(p.hostPort ?? 0);
      const hostIP = str(p.hostIP);
      if (hostIP !== '' && hostPort === 0) warnings.push(`${field}: hostIP set without hostPort: ${goPort(p)}`);
      const key = `${Number(p.containerPort ?? 0)}/${str(p.protocol)}`;
      let others = seen.get(key);
      if (!others) seen.set(key, (others = []));
      for (const [other, otherField] of others) {
        if (budget-- <= 0 || warnings.length >= MAX_RECORDED_WARNINGS) break;
        const otherHostPort = Number(other.hostPort ?? 0);
        const otherHostIP = str(other.hostIP);
        if (hostIP === otherHostIP && hostPort === otherHostPort) warnings.push(`${field}: duplicate port definition with ${otherField}`);
        else if (hostPort === 0 || otherHostPort === 0) warnings.push(`${field}: overlapping port definition with ${otherField}`);
        else if (hostPort === otherHostPort && (hostIP === '') !== (otherHostIP === '')) warnings.push(`${field}: dangerously ambiguous port definition with ${otherField}`);
      }
      others.push([p, field]);
    });
  }

  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    warnings.push(`${specPath}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = affinity[kind];
    if (!isObj(a)) continue;
    asObjects(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (!isObj(t.labelSelector)) warnings.push(`${specPath}.affinity.${kind}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector: ${NULL_SELECTOR}`);
    });
    asObjects(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const term = isObj(t.podAffinityTerm) ? t.podAffinityTerm : {};
      if (!isObj(term.labelSelector)) warnings.push(`${specPath}.affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector: ${NULL_SELECTOR}`);
    });
  }
  return warnings;
}

/** kube's GetWarningsForPod. */
export function podWarnings(pod: { spec?: unknown; metadata?: unknown }): string[] {
  return warningsFor(isObj(pod.spec) ? pod.spec : {}, isObj(pod.metadata) ? pod.metadata : {}, undefined);
}

/** kube's GetWarningsForPodTemplate, for the template at `field` (`spec.template`, `template`...). */
export function podTemplateWarnings(template: unknown, field: string): string[] {
  if (!isObj(template)) return [];
  return warningsFor(isObj(template.spec) ? template.spec : {}, isObj(template.metadata) ? template.metadata : {}, field);
}
