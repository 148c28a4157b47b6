import { asObjects, isObj, str, type KubeObject, type Obj } from '@kapi/apimachinery';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin, type PluginHost } from '@kapi/apiserver';
import { sortedEntries } from './pod-resources.js';
import { podResources } from './pod-totals.js';
import { resourceList, type ResourceList } from './quota/lists.js';
import { compareQuantities, toNumber } from './quantity.js';

// kube 1.33's LimitRanger admission plugin (plugin/pkg/admission/limitranger), on by default: the LimitRanges of a
// namespace give its new pods' containers default requests and limits (noted in the `kubernetes.io/limit-ranger`
// annotation), and refuse (403) pods and PersistentVolumeClaims outside their min, max and limit-to-request ratio.

const ANNOTATION = 'kubernetes.io/limit-ranger';

const resourcesOf = (c: Obj): Obj => (isObj(c.resources) ? c.resources : (c.resources = {}));

/** kube's mergeContainerResources: what a container lacks of the defaults, noted for the annotation. */
function mergeDefaults(c: Obj, limits: ResourceList, requests: ResourceList, kind: string, notes: string[]): void {
  const resources = resourcesOf(c);
  const set = (key: 'limits' | 'requests', defaults: ResourceList): string[] => {
    const list = resourceList(resources[key]);
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
    Object.assign(requests, resourceList(item.defaultRequest));
    Object.assign(limits, resourceList(item.default));
  }
  const spec = isObj(pod.spec) ? pod.spec : {};
  const notes: string[] = [];
  for (const c of asObjects(spec.containers)) mergeDefaults(c, limits, requests, 'container', notes);
  for (const c of asObjects(spec.initContainers)) mergeDefaults(c, limits, requests, 'init container', notes);
  if (!notes.length) return;
  const meta = (pod.metadata ??= {});
  meta.annotations = { ...resourceList(meta.annotations), [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` } as Record<string, string>;
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
  for (const [name, v] of sortedEntries(item.min)) out.push(minConstraint(type, name, v, requests, limits));
  for (const [name, v] of sortedEntries(item.max)) out.push(maxConstraint(type, name, v, requests, limits));
  for (const [name, v] of sortedEntries(item.maxLimitRequestRatio)) out.push(ratioConstraint(type, name, v, requests, limits));
  return out.filter((e): e is string => e !== undefined);
}

/** kube's PodValidateLimitFunc: each container's and init container's values, and the pod's totals. */
function podErrors(range: KubeObject, pod: KubeObject): string[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const errs: string[] = [];
  for (const item of asObjects(isObj(range.spec) ? range.spec.limits : undefined)) {
    if (item.type === 'Container') {
      for (const c of [...asObjects(spec.containers), ...asObjects(spec.initContainers)]) {
        const resources = resourceList(c.resources);
        errs.push(...constraintErrors(item, resourceList(resources.requests), resourceList(resources.limits)));
      }
    }
    if (item.type === 'Pod') errs.push(...constraintErrors(item, podResources(spec, 'requests'), podResources(spec, 'limits')));
  }
  return errs;
}

/** kube's PersistentVolumeClaimValidateLimitFunc: a claim's storage request within the PersistentVolumeClaim items' min and max. */
function claimErrors(range: KubeObject, claim: KubeObject): string[] {
  const requests = resourceList(resourceList(resourceList(claim.spec).resources).requests);
  const errs: (string | undefined)[] = [];
  for (const item of asObjects(isObj(range.spec) ? range.spec.limits : undefined)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [name, v] of sortedEntries(item.min)) errs.push(minConstraint('PersistentVolumeClaim', name, v, requests, {}));
    for (const [name, v] of sortedEntries(item.max)) {
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
  /** kube skips objects already being deleted. */
  const deleting = (attrs: AdmissionAttributes) => !!attrs.oldObject?.metadata?.deletionTimestamp;
  return {
    name: 'LimitRanger',
    operations: ['CREATE', 'UPDATE'],
    matches: (attrs) => kindOf(attrs) !== undefined,
    async mutate(attrs) {
      if (kindOf(attrs) !== 'pod' || deleting(attrs)) return;
      for (const range of await ranges(attrs)) defaultPod(range, attrs.object!);
    },
    async validate(attrs) {
      const kind = kindOf(attrs);
      if (!kind || deleting(attrs)) return;
      for (const range of await ranges(attrs)) {
        const errs = kind === 'pod' ? podErrors(range, attrs.object!) : claimErrors(range, attrs.object!);
        // kube's utilerrors.NewAggregate: one error as itself, several in brackets.
        if (errs.length) throw admissionForbidden(attrs, errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
      }
    },
  };
}
