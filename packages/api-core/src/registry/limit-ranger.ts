import { asObjects, formatQuantity, isObj, newForbidden, parseQuantity, str, type KubeObject, type Obj, type QuantityFormat } from '@kapi/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin, PluginHost } from '@kapi/apiserver';
import { toNumber } from './limit-range.js';
import { addDecimals, compareDecimals, compareQuantities, decimal, type Decimal } from './quantity.js';

// kube 1.33's LimitRanger admission plugin (plugin/pkg/admission/limitranger), on by default: the LimitRanges of a
// namespace give its new pods' containers default requests and limits (noted in the `kubernetes.io/limit-ranger`
// annotation), and refuse (403) pods and PersistentVolumeClaims outside their min, max and limit-to-request ratio.

const ANNOTATION = 'kubernetes.io/limit-ranger';
type ResourceList = Record<string, unknown>;

const listOf = (v: unknown): ResourceList => (isObj(v) ? v : {});
const sortedEntries = (o: ResourceList) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const resourcesOf = (c: Obj): Obj => (isObj(c.resources) ? c.resources : (c.resources = {}));
const isSidecar = (c: Obj) => c.restartPolicy === 'Always';

/** kube's mergeContainerResources: what a container lacks of the defaults, noted for the annotation. */
function mergeDefaults(c: Obj, limits: ResourceList, requests: ResourceList, kind: string, notes: string[]): void {
  const resources = resourcesOf(c);
  const set = (key: 'limits' | 'requests', defaults: ResourceList): string[] => {
    const list = listOf(resources[key]);
    const added = Object.keys(defaults).filter((name) => !Object.hasOwn(list, name));
    for (const name of added) list[name] = defaults[name];
    if (added.length) resources[key] = list;
    return added.sort();
  };
  const setLimits = set('limits', limits);
  const setRequests = set('requests', requests);
  if (setRequests.length) notes.push(`${setRequests.join(', ')} request for ${kind} ${str(c.name)}`);
  if (setLimits.length) notes.push(`${setLimits.join(', ')} limit for ${kind} ${str(c.name)}`);
}

/** kube's PodMutateLimitFunc: the Container items' defaults merged into every container and init container. */
function defaultPod(range: KubeObject, pod: KubeObject): void {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const item of asObjects(isObj(range.spec) ? range.spec.limits : undefined)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, listOf(item.defaultRequest));
    Object.assign(limits, listOf(item.default));
  }
  const spec = isObj(pod.spec) ? pod.spec : {};
  const notes: string[] = [];
  for (const c of asObjects(spec.containers)) mergeDefaults(c, limits, requests, 'container', notes);
  for (const c of asObjects(spec.initContainers)) mergeDefaults(c, limits, requests, 'init container', notes);
  if (!notes.length) return;
  const meta = (pod.metadata ??= {});
  meta.annotations = { ...listOf(meta.annotations), [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` } as Record<string, string>;
}

const q = (v: unknown) => String(v);

function minConstraint(type: string, name: string, enforced: unknown, requests: ResourceList, limits: ResourceList): string | undefined {
  if (!Object.hasOwn(requests, name)) return `minimum ${name} usage per ${type} is ${q(enforced)}.  No request is specified`;
  if (compareQuantities(enforced, requests[name]) > 0) return `minimum ${name} usage per ${type} is ${q(enforced)}, but request is ${q(requests[name])}`;
  if (Object.hasOwn(limits, name) && compareQuantities(enforced, limits[name]) > 0) return `minimum ${name} usage per ${type} is ${q(enforced)}, but limit is ${q(limits[name])}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: unknown, requests: ResourceList, limits: ResourceList): string | undefined {
  if (!Object.hasOwn(limits, name)) return `maximum ${name} usage per ${type} is ${q(enforced)}.  No limit is specified`;
  if (compareQuantities(limits[name], enforced) > 0) return `maximum ${name} usage per ${type} is ${q(enforced)}, but limit is ${q(limits[name])}`;
  if (Object.hasOwn(requests, name) && compareQuantities(requests[name], enforced) > 0) return `maximum ${name} usage per ${type} is ${q(enforced)}, but request is ${q(requests[name])}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: unknown, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = Object.hasOwn(requests, name) ? toNumber(requests[name]) : 0;
  const limit = Object.hasOwn(limits, name) ? toNumber(limits[name]) : 0;
  if (!request) return `${name} max limit to request ratio per ${type} is ${q(enforced)}, but no request is specified or request is 0`;
  if (!limit) return `${name} max limit to request ratio per ${type} is ${q(enforced)}, but no limit is specified or limit is 0`;
  const ratio = limit / request;
  if (ratio > toNumber(enforced)) return `${name} max limit to request ratio per ${type} is ${q(enforced)}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}

/** The item's min, max and ratio constraints on one set of requests and limits (Go's map order made sorted). */
function constraintErrors(item: Obj, requests: ResourceList, limits: ResourceList): string[] {
  const type = str(item.type);
  const out: (string | undefined)[] = [];
  for (const [name, v] of sortedEntries(listOf(item.min))) out.push(minConstraint(type, name, v, requests, limits));
  for (const [name, v] of sortedEntries(listOf(item.max))) out.push(maxConstraint(type, name, v, requests, limits));
  for (const [name, v] of sortedEntries(listOf(item.maxLimitRequestRatio))) out.push(ratioConstraint(type, name, v, requests, limits));
  return out.filter((e): e is string => e !== undefined);
}

/** A sum of quantities as Go's Quantity.Add keeps it: the exact value, in the format of the first one added. */
type Total = { d: Decimal; format: QuantityFormat };
const parsed = (v: unknown): Total => {
  try {
    const { value, format } = parseQuantity(String(v));
    return { d: value, format };
  } catch {
    return { d: decimal(v), format: 'DecimalSI' };
  }
};

/** kube's addResourceList. */
function addList(into: Map<string, Total>, list: ResourceList | Map<string, Total>): void {
  for (const [name, v] of list instanceof Map ? list : Object.entries(list).map(([k, x]) => [k, parsed(x)] as const)) {
    const was = into.get(name);
    into.set(name, was ? { d: addDecimals(was.d, v.d), format: was.format } : v);
  }
}

/** kube's maxResourceList: the larger of each. */
function maxList(into: Map<string, Total>, list: Map<string, Total>): void {
  for (const [name, v] of list) {
    const was = into.get(name);
    if (!was || compareDecimals(v.d, was.d) > 0) into.set(name, v);
  }
}

/**
 * kube's podRequests and podLimits (of the spec): the containers' sum, sidecars added, and at least what the largest
 * init container needs beside the sidecars started before it.
 */
function podTotal(spec: Obj, key: 'requests' | 'limits'): ResourceList {
  const total = new Map<string, Total>();
  for (const c of asObjects(spec.containers)) addList(total, listOf(listOf(c.resources)[key]));
  const sidecars = new Map<string, Total>();
  const inits = new Map<string, Total>();
  for (const c of asObjects(spec.initContainers)) {
    const own = listOf(listOf(c.resources)[key]);
    let needs: Map<string, Total>;
    if (isSidecar(c)) {
      addList(total, own);
      addList(sidecars, own);
      needs = sidecars;
    } else {
      needs = new Map();
      addList(needs, own);
      addList(needs, sidecars);
    }
    maxList(inits, needs);
  }
  maxList(total, inits);
  return Object.fromEntries([...total].map(([name, t]) => [name, formatQuantity(t.d, t.format)]));
}

/** kube's PodValidateLimitFunc: each container's and init container's values, and the pod's totals. */
function podErrors(range: KubeObject, pod: KubeObject): string[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const errs: string[] = [];
  for (const item of asObjects(isObj(range.spec) ? range.spec.limits : undefined)) {
    if (item.type === 'Container') {
      for (const c of [...asObjects(spec.containers), ...asObjects(spec.initContainers)]) {
        const resources = listOf(c.resources);
        errs.push(...constraintErrors(item, listOf(resources.requests), listOf(resources.limits)));
      }
    }
    if (item.type === 'Pod') errs.push(...constraintErrors(item, podTotal(spec, 'requests'), podTotal(spec, 'limits')));
  }
  return errs;
}

/** kube's PersistentVolumeClaimValidateLimitFunc: a claim's storage request within the PersistentVolumeClaim items' min and max. */
function claimErrors(range: KubeObject, claim: KubeObject): string[] {
  const requests = listOf(listOf(listOf(claim.spec).resources).requests);
  const errs: (string | undefined)[] = [];
  for (const item of asObjects(isObj(range.spec) ? range.spec.limits : undefined)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [name, v] of sortedEntries(listOf(item.min))) errs.push(minConstraint('PersistentVolumeClaim', name, v, requests, {}));
    for (const [name, v] of sortedEntries(listOf(item.max))) {
      if (!Object.hasOwn(requests, name)) errs.push(`maximum ${name} usage per PersistentVolumeClaim is ${q(v)}.  No request is specified`);
      else if (compareQuantities(requests[name], v) > 0) errs.push(`maximum ${name} usage per PersistentVolumeClaim is ${q(v)}, but request is ${q(requests[name])}`);
    }
  }
  return errs.filter((e): e is string => e !== undefined);
}

/** Which requests the plugin judges: new pods (and their resizes), claims created or updated; never a subresource else. */
function kindOf(attrs: AdmissionAttributes): 'pod' | 'claim' | undefined {
  if (attrs.resource.group !== '' || !attrs.object) return undefined;
  if (attrs.resource.plural === 'pods') {
    if (attrs.subresource === 'resize' && attrs.operation === 'UPDATE') return 'pod';
    return !attrs.subresource && attrs.operation === 'CREATE' ? 'pod' : undefined;
  }
  return attrs.resource.plural === 'persistentvolumeclaims' && !attrs.subresource ? 'claim' : undefined;
}

/** The LimitRanger admission plugin; `host` reads the namespace's LimitRanges (from the watch cache). */
export function limitRangerAdmission(host: PluginHost): AdmissionPlugin {
  const ranges = async (attrs: AdmissionAttributes): Promise<KubeObject[]> => {
    const entry = host.registry.byKind('', 'v1', 'LimitRange');
    if (!entry) return [];
    return (await host.store.list(host.systemContext(entry, { namespace: attrs.namespace }))).items;
  };
  const name = (attrs: AdmissionAttributes) => str(attrs.object?.metadata?.name) || str(attrs.object?.metadata?.generateName) || attrs.name;
  /** kube skips objects already being deleted. */
  const deleting = (attrs: AdmissionAttributes) => !!attrs.oldObject?.metadata?.deletionTimestamp;
  return {
    name: 'LimitRanger',
    operations: ['CREATE', 'UPDATE'],
    async mutate(attrs) {
      if (kindOf(attrs) !== 'pod' || deleting(attrs)) return;
      for (const range of await ranges(attrs)) defaultPod(range, attrs.object!);
    },
    async validate(attrs) {
      const kind = kindOf(attrs);
      if (!kind || deleting(attrs)) return;
      for (const range of await ranges(attrs)) {
        const errs = kind === 'pod' ? podErrors(range, attrs.object!) : claimErrors(range, attrs.object!);
        if (errs.length) {
          const resource = kind === 'pod' ? 'pods' : 'persistentvolumeclaims';
          // kube's utilerrors.NewAggregate: one error as itself, several in brackets.
          throw newForbidden({ group: '', resource }, name(attrs), errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
        }
      }
    },
  };
}
