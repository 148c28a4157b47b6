import { asObjects, isObj, str, type KubeObject, type Obj } from '@kapi/apimachinery';
import { podResources } from '../pod-totals.js';
import { computePodQOS } from '../pod-qos.js';
import { compareQuantities, roundUpWhole } from '../quantity.js';
import { add, resourceList, type ResourceList } from './lists.js';

// kube 1.33's quota evaluators (pkg/quota/v1/evaluator/core and k8s.io/apiserver/pkg/quota/v1/generic): what an
// object of each resource uses of a ResourceQuota, which of a quota's resources it counts against, and which of its
// scopes it falls in.

/** A scope selector term of a quota (`spec.scopes` as Exists, then `spec.scopeSelector.matchExpressions`). */
export type ScopeSelector = { scopeName: string; operator: string; values?: string[] };

export interface Evaluator {
  /** What the object uses. */
  usage(obj: KubeObject): ResourceList;
  /** The quota resources among `names` this evaluator counts. */
  matching(names: string[]): string[];
  /** Whether the object falls in the scope (resources without scopes fall in none). */
  inScope(scope: ScopeSelector, obj: KubeObject): boolean;
  /** Whether a write of the object is charged: creates, and the updates that can change usage. */
  handles(operation: string, subresource: string, obj: KubeObject, old?: KubeObject): boolean;
  /** Why the object may not be admitted under a quota tracking `required` (kube's Constraints), if it may not. */
  constraints?(required: string[], obj: KubeObject): string | undefined;
}

/** generic.ObjectCountQuotaResourceNameFor: `count/<resource>` for the core group, `count/<resource>.<group>` else. */
export const countName = (group: string, resource: string) => `count/${resource}${group ? `.${group}` : ''}`;

const specOf = (obj: KubeObject): Obj => (isObj(obj.spec) ? obj.spec : {});

/** generic.NewObjectCountEvaluator: one of the resource per object created, under its count name and legacy name. */
export function objectCountEvaluator(group: string, resource: string, legacyName?: string): Evaluator {
  const names = [countName(group, resource), ...(legacyName ? [legacyName] : [])];
  return {
    usage: () => Object.fromEntries(names.map((n) => [n, '1'])),
    matching: (input) => input.filter((n) => names.includes(n)),
    inScope: () => false,
    handles: (operation, subresource) => operation === 'CREATE' && !subresource,
  };
}

// ---- pods ----

const POD_RESOURCES = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);
/** If a quota tracks cpu or memory, every container must ask for it: kube's kept mistake (validationSet). */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);
const isNativeResource = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');

/** podComputeUsageHelper: what given requests and limits count as. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = { pods: '1' };
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    if (Object.hasOwn(requests, name)) out[name] = out[`requests.${name}`] = requests[name];
    if (Object.hasOwn(limits, name)) out[`limits.${name}`] = limits[name];
  }
  for (const [name, q] of Object.entries(requests)) {
    if (name.startsWith('hugepages-')) out[name] = out[`requests.${name}`] = q;
    else if (!isNativeResource(name)) out[`requests.${name}`] = q;
  }
  return out;
}

/** kube's IsTerminating: a pod with an active deadline. */
const isTerminating = (pod: KubeObject) => typeof specOf(pod).activeDeadlineSeconds === 'number' && (specOf(pod).activeDeadlineSeconds as number) >= 0;

/** A scoped selector's In/NotIn/Exists/DoesNotExist on the pod's priority class (kube's podMatchesSelector). */
function priorityClassMatches(pod: KubeObject, scope: ScopeSelector): boolean {
  const name = str(specOf(pod).priorityClassName);
  const values = scope.values ?? [];
  switch (scope.operator) {
    case 'Exists':
      return !!name;
    case 'DoesNotExist':
      return !name;
    case 'In':
      return !!name && values.includes(name);
    case 'NotIn':
      return !name || !values.includes(name);
    default:
      return false;
  }
}

/** kube's usesCrossNamespacePodAffinity: an affinity or anti-affinity term naming namespaces or a namespace selector. */
function crossNamespaceAffinity(pod: KubeObject): boolean {
  const affinity = isObj(specOf(pod).affinity) ? (specOf(pod).affinity as Obj) : {};
  return ['podAffinity', 'podAntiAffinity'].some((key) => {
    const a = isObj(affinity[key]) ? (affinity[key] as Obj) : {};
    const terms = [...asObjects(a.requiredDuringSchedulingIgnoredDuringExecution), ...asObjects(a.preferredDuringSchedulingIgnoredDuringExecution).map((w) => (isObj(w.podAffinityTerm) ? w.podAffinityTerm : {}))];
    return terms.some((t) => (Array.isArray(t.namespaces) && t.namespaces.length > 0) || isObj(t.namespaceSelector));
  });
}

/** kube's QuotaV1Pod: a pod in a terminal phase is not charged compute resources. */
const charged = (pod: KubeObject) => !['Failed', 'Succeeded'].includes(str(isObj(pod.status) ? pod.status.phase : undefined));

export const podEvaluator: Evaluator = {
  usage(pod) {
    const result: ResourceList = { 'count/pods': '1' };
    if (!charged(pod)) return result;
    const spec = specOf(pod);
    // kube 1.33 counts what a resizing pod's containers run with too (UseStatusResources, InPlacePodVerticalScaling on).
    const options = { overhead: true, status: pod.status };
    return add(result, computeUsage(podResources(spec, 'requests', options), podResources(spec, 'limits', options)));
  },
  matching: (input) => input.filter((n) => POD_RESOURCES.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || (n.startsWith('requests.') && !isNativeResource(n))),
  inScope(scope, pod) {
    switch (scope.scopeName) {
      case 'Terminating':
        return isTerminating(pod);
      case 'NotTerminating':
        return !isTerminating(pod);
      case 'BestEffort':
        return computePodQOS(specOf(pod)) === 'BestEffort';
      case 'NotBestEffort':
        return computePodQOS(specOf(pod)) !== 'BestEffort';
      case 'PriorityClass':
        return priorityClassMatches(pod, scope);
      case 'CrossNamespacePodAffinity':
        return crossNamespaceAffinity(pod);
      default:
        return false;
    }
  },
  handles(operation, subresource, pod, old) {
    if (subresource === 'resize') return operation === 'UPDATE';
    if (subresource) return false;
    if (operation === 'UPDATE' && old) return isTerminating(old) !== isTerminating(pod);
    return operation === 'CREATE';
  },
  constraints(required, pod) {
    const requiredSet = required.filter((n) => VALIDATION_SET.has(n));
    if (!requiredSet.length) return undefined;
    const missing = new Map<string, Set<string>>();
    const spec = specOf(pod);
    for (const c of [...asObjects(spec.containers), ...asObjects(spec.initContainers)]) {
      const resources = isObj(c.resources) ? c.resources : {};
      const has = computeUsage(resourceList(resources.requests), resourceList(resources.limits));
      for (const name of requiredSet) if (!Object.hasOwn(has, name)) missing.set(name, (missing.get(name) ?? new Set()).add(str(c.name)));
    }
    if (!missing.size) return undefined;
    const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...missing.get(name)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
};

// ---- services ----

const SERVICE_RESOURCES = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

export const serviceEvaluator: Evaluator = {
  usage(svc) {
    const spec = specOf(svc);
    const type = str(spec.type) || 'ClusterIP';
    const ports = asObjects(spec.ports).length;
    const nodePorts = type === 'NodePort' || (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false) ? ports : 0;
    return { 'count/services': '1', services: '1', 'services.loadbalancers': type === 'LoadBalancer' ? '1' : '0', 'services.nodeports': String(nodePorts) };
  },
  matching: (input) => input.filter((n) => SERVICE_RESOURCES.includes(n)),
  inScope: () => false,
  handles: (operation, subresource) => !subresource && (operation === 'CREATE' || operation === 'UPDATE'),
};

// ---- persistent volume claims ----

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** kube's GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function claimClass(pvc: KubeObject): string {
  const annotations = pvc.metadata?.annotations;
  if (annotations && Object.hasOwn(annotations, 'volume.beta.kubernetes.io/storage-class')) return annotations['volume.beta.kubernetes.io/storage-class'];
  return str(specOf(pvc).storageClassName);
}

/**
 * kube's getStorageUsage: the storage the claim asks for in whole bytes, or what was allocated to it when that is
 * more (RecoverVolumeExpansionFailure, on in 1.33: an expansion that failed and was asked back down still counts
 * what the volume got).
 */
function claimStorage(pvc: KubeObject): string | undefined {
  const requests = resourceList(isObj(specOf(pvc).resources) ? (specOf(pvc).resources as Obj).requests : undefined);
  if (!Object.hasOwn(requests, 'storage')) return undefined;
  const asked = roundUpWhole(requests.storage);
  const allocated = resourceList(isObj(pvc.status) ? pvc.status.allocatedResources : undefined);
  if (Object.hasOwn(allocated, 'storage') && compareQuantities(allocated.storage, asked) > 0) return roundUpWhole(allocated.storage);
  return asked;
}

export const claimEvaluator: Evaluator = {
  usage(pvc) {
    const out: ResourceList = { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1' };
    const className = claimClass(pvc);
    if (className) out[`${className}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`] = '1';
    const storage = claimStorage(pvc);
    if (storage !== undefined) {
      out['requests.storage'] = storage;
      if (className) out[`${className}${STORAGE_CLASS_SUFFIX}requests.storage`] = storage;
    }
    return out;
  },
  matching: (input) =>
    input.filter((n) => ['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage'].includes(n) || n.endsWith(`${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`) || n.endsWith(`${STORAGE_CLASS_SUFFIX}requests.storage`)),
  inScope: () => false,
  handles: (operation, subresource) => !subresource && (operation === 'CREATE' || operation === 'UPDATE'),
};

/** The evaluator of a resource: kube's own for pods, services and claims, object counts for the rest. */
export function evaluatorFor(group: string, resource: string): Evaluator {
  if (group === '') {
    if (resource === 'pods') return podEvaluator;
    if (resource === 'services') return serviceEvaluator;
    if (resource === 'persistentvolumeclaims') return claimEvaluator;
    if (['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'].includes(resource)) return objectCountEvaluator(group, resource, resource);
  }
  return objectCountEvaluator(group, resource);
}

/** A quota's scope terms: `spec.scopes` as Exists, then its scope selector's expressions (getScopeSelectorsFromQuota). */
export function quotaScopes(quota: KubeObject): ScopeSelector[] {
  const spec = specOf(quota);
  const scopes = (Array.isArray(spec.scopes) ? spec.scopes : []).map((s) => ({ scopeName: String(s), operator: 'Exists' }));
  const selector = isObj(spec.scopeSelector) ? spec.scopeSelector : {};
  return [...scopes, ...asObjects(selector.matchExpressions).map((e) => ({ scopeName: str(e.scopeName), operator: str(e.operator), values: Array.isArray(e.values) ? e.values.map(String) : [] }))];
}

/** generic.Matches: the quota limits some resource the evaluator counts, and the object is in every scope of the quota. */
export function quotaMatches(quota: KubeObject, evaluator: Evaluator, obj: KubeObject): boolean {
  const hard = Object.keys(resourceList(isObj(quota.status) ? quota.status.hard : undefined));
  return evaluator.matching(hard).length > 0 && quotaScopes(quota).every((scope) => evaluator.inScope(scope, obj));
}
