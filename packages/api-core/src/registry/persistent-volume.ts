import { isDeepStrictEqual } from 'node:util';
import { posix } from 'node:path';
import {
  asObjects,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  GoValue,
  goQuantityRepr,
  isDNS1123Label,
  isDNS1123Subdomain,
  isLabelValue,
  isObj,
  nowTimestamp,
  str,
  type FieldError,
  type KubeObject,
  type Obj,
} from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { nodeFieldRequirementErrors, nodeSelectorRequirementErrors, strings } from './pod-affinity.js';
import { backstepErrors } from './pod-paths.js';
import { DEPRECATED_NODE_LABELS } from './pod-warnings.js';
import { byteLength, csiDriverErrors, ISCSI_NAME_LENGTH, iscsiNameErrors, LUN_RANGE, sourceErrors } from './pod-volumes.js';
import { compareQuantities, decimal } from './quantity.js';

// kube 1.33's PersistentVolume strategy (pkg/registry/core/persistentvolume) and validation (pkg/apis/core/validation:
// ValidatePersistentVolume, ValidatePersistentVolumeSpec and its source validators, ValidatePersistentVolumeUpdate,
// ValidatePersistentVolumeStatusUpdate; pkg/volume/validation's mount option check). Feature gates at their 1.33
// defaults: VolumeAttributesClass off (beta, off by default until its GA in 1.34), PersistentVolumeLastPhaseTransitionTime
// on (GA since 1.31). The name (a DNS subdomain, ValidatePersistentVolumeName) and the rest of the metadata are the
// server's generic ObjectMeta checks.

/** The field-tree types this validation judges wholly: the schema's `required` lists inside them are not enforced. */
export const PERSISTENT_VOLUME_VALIDATED_TYPES = ['v1/PersistentVolumeSpec'];

type Spec = Obj;
type PV = KubeObject & { spec?: Spec; status?: Obj };

/** What the stored object lets an update keep (kube's ValidationOptionsForPersistentVolume). */
interface Options {
  /** The VolumeAttributesClass gate (off in 1.33), or a stored volume that already had a class. */
  enableVolumeAttributesClass: boolean;
  /** The stored volume's required node affinity already had a value that is not a label value. */
  allowInvalidLabelValueInRequiredNodeAffinity: boolean;
}
const CREATE_OPTIONS: Options = { enableVolumeAttributesClass: false, allowInvalidLabelValueInRequiredNodeAffinity: false };

const isSet = (v: unknown) => v !== undefined && v !== null;
const specOf = (pv: KubeObject): Spec => (isObj((pv as PV).spec) ? ((pv as PV).spec as Spec) : {});

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
export const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options';

/**
 * The sources in ValidatePersistentVolumeSpec's order: the first one present counts, a later one is "more than 1"
 * (but for flexVolume, which kube validates and counts without that check).
 */
const SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi',
  'cinder', 'fc', 'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO',
  'local', 'storageos', 'csi',
];
/** The field kube's "more than 1 volume type" error names where it differs from the JSON name. */
const EXTRA_NAME: Record<string, string> = { cephfs: 'cephFS' };
/** The field a source's own errors are under where kube names it otherwise. */
const SOURCE_FIELD: Record<string, string> = { gcePersistentDisk: 'persistentDisk' };
/** Sources whose PV validator is the Pod volume's (validateHostPathVolumeSource, validateFCVolumeSource, ...). */
const POD_VALIDATED = new Set([
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'fc', 'flexVolume',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO',
]);
/** pkg/volume/validation's checkMountOption: the sources that take mount options (the annotation's). */
const MOUNTABLE = new Set([
  'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'cinder', 'cephfs', 'azureFile',
  'vsphereVolume', 'azureDisk', 'photonPersistentDisk',
]);

/** kube's PV iSCSI name checks: as a Pod's, but every bad name (a bad prefix too) is just "must be valid format". */
const pvISCSINameErrors = (name: string, field: string): FieldError[] => iscsiNameErrors(name, field).map((e) => ({ ...e, message: 'must be valid format' }));

/** kube's validateISCSIPersistentVolumeSource (the portal's length error under `targetportal`, as kube spells it). */
function iscsiErrors(iscsi: Obj, pvName: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const portal = str(iscsi.targetPortal);
  if (!portal) errs.push(fieldRequired(`${field}.targetPortal`));
  if (isSet(iscsi.initiatorName) && byteLength(`${pvName}:${portal}`) > 64) errs.push(fieldInvalid(`${field}.targetportal`, portal, ISCSI_NAME_LENGTH));
  if (!str(iscsi.iqn)) errs.push(fieldRequired(`${field}.iqn`));
  else errs.push(...pvISCSINameErrors(str(iscsi.iqn), `${field}.iqn`));
  // A missing lun is Go's zero: lun 0.
  const lun = typeof iscsi.lun === 'number' ? iscsi.lun : 0;
  if (lun < 0 || lun > 255) errs.push(fieldInvalid(`${field}.lun`, lun, LUN_RANGE));
  if ((iscsi.chapAuthDiscovery === true || iscsi.chapAuthSession === true) && !isSet(iscsi.secretRef)) errs.push(fieldRequired(`${field}.secretRef`));
  if (isSet(iscsi.secretRef) && !str(isObj(iscsi.secretRef) ? iscsi.secretRef.name : '')) errs.push(fieldRequired(`${field}.secretRef.name`));
  if (isSet(iscsi.initiatorName)) errs.push(...pvISCSINameErrors(str(iscsi.initiatorName), `${field}.initiatorname`));
  return errs;
}

/** kube's validatePVSecretReference: a name (a DNS subdomain) and a namespace (a DNS label). */
function secretReferenceErrors(ref: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const [name, namespace] = [str(ref.name), str(ref.namespace)];
  if (!name) errs.push(fieldRequired(`${field}.name`));
  else for (const msg of isDNS1123Subdomain(name)) errs.push(fieldInvalid(`${field}.name`, name, msg));
  if (!namespace) errs.push(fieldRequired(`${field}.namespace`));
  else for (const msg of isDNS1123Label(namespace)) errs.push(fieldInvalid(`${field}.namespace`, namespace, msg));
  return errs;
}

/** kube's validateCSIPersistentVolumeSource (nodeStageSecretRef is not checked, as in kube). */
function csiErrors(csi: Obj, field: string): FieldError[] {
  const errs = csiDriverErrors(str(csi.driver), `${field}.driver`);
  if (!str(csi.volumeHandle)) errs.push(fieldRequired(`${field}.volumeHandle`));
  for (const ref of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    if (isSet(csi[ref])) errs.push(...secretReferenceErrors(isObj(csi[ref]) ? csi[ref] : {}, `${field}.${ref}`));
  }
  return errs;
}

/** The secret reference of a PV source (cinder, storageos) also needs a namespace. */
const secretNamespaceErrors = (source: Obj, field: string): FieldError[] =>
  isSet(source.secretRef) && !str(isObj(source.secretRef) ? source.secretRef.namespace : '') ? [fieldRequired(`${field}.secretRef.namespace`)] : [];

/** The checks of the one source a PV has (besides local's node affinity, which the spec checks). */
function pvSourceErrors(kind: string, source: Obj, pvName: string, field: string): FieldError[] {
  if (POD_VALIDATED.has(kind)) return sourceErrors(kind, source, field, '', undefined);
  switch (kind) {
    case 'glusterfs': {
      // validateGlusterfsPersistentVolumeSource: the Pod's checks, and the endpoints' namespace when given.
      const errs = sourceErrors(kind, source, field, '', undefined);
      if (isSet(source.endpointsNamespace)) {
        const ns = str(source.endpointsNamespace);
        if (!ns) errs.push(fieldInvalid(`${field}.endpointsNamespace`, ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
        else for (const msg of isDNS1123Label(ns)) errs.push(fieldInvalid(`${field}.endpointsNamespace`, ns, msg));
      }
      return errs;
    }
    case 'iscsi':
      return iscsiErrors(source, pvName, field);
    case 'cinder':
    case 'storageos':
      return [...sourceErrors(kind, source, field, '', undefined), ...secretNamespaceErrors(source, field)];
    case 'azureFile': {
      const errs = sourceErrors(kind, source, field, '', undefined);
      if (isSet(source.secretNamespace) && !str(source.secretNamespace)) errs.push(fieldRequired(`${field}.secretNamespace`));
      return errs;
    }
    case 'local':
      // validateLocalVolumeSource.
      if (!str(source.path)) return [fieldRequired(`${field}.path`)];
      return backstepErrors(str(source.path), `${field}.path`);
    case 'csi':
      return csiErrors(source, field);
    default:
      return [];
  }
}

/** kube's validateVolumeNodeAffinity and ValidateNodeSelector: required terms, at least one. */
function volumeNodeAffinityErrors(affinity: Obj, options: Options, field: string): FieldError[] {
  if (!isSet(affinity.required)) return [fieldRequired(`${field}.required`, 'must specify required node constraints')];
  const required = isObj(affinity.required) ? affinity.required : {};
  const termsField = `${field}.required.nodeSelectorTerms`;
  const terms = asObjects(required.nodeSelectorTerms);
  if (terms.length === 0) return [fieldRequired(termsField, 'must have at least one node selector term')];
  const allow = options.allowInvalidLabelValueInRequiredNodeAffinity;
  return terms.flatMap((term, i) => [
    ...asObjects(term.matchExpressions).flatMap((req, j) => nodeSelectorRequirementErrors(req, allow, `${termsField}[${i}].matchExpressions[${j}]`)),
    ...asObjects(term.matchFields).flatMap((req, j) => nodeFieldRequirementErrors(req, `${termsField}[${i}].matchFields[${j}]`)),
  ]);
}

/** Quantity.Value(): the quantity as an integer, rounded away from zero. */
function quantityValue(q: unknown): bigint {
  const { n, e } = decimal(q);
  if (e >= 0) return n * 10n ** BigInt(e);
  const unit = 10n ** BigInt(-e);
  const whole = n / unit;
  return n % unit === 0n ? whole : whole + (n > 0n ? 1n : -1n);
}

/** Go's `%#v` of a core.ResourceList (keys sorted, as fmt prints maps). */
function goResourceList(capacity: unknown): GoValue {
  if (!isObj(capacity)) return new GoValue('core.ResourceList(nil)');
  const entries = Object.keys(capacity)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${goQuantityRepr(String(capacity[k]))}`);
  return new GoValue(`core.ResourceList{${entries.join(', ')}}`);
}

/** kube's capacity checks: storage and nothing else, each quantity a positive one. */
function capacityErrors(capacity: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const resources = isObj(capacity) ? Object.keys(capacity) : [];
  if (resources.length === 0) errs.push(fieldRequired('spec.capacity'));
  if (!resources.includes('storage') || resources.length > 1) errs.push(fieldNotSupported('spec.capacity', goResourceList(capacity), ['storage']));
  // Go's map order is random; the object's own order here.
  for (const r of resources) {
    const q = (capacity as Obj)[r];
    const at = `spec.capacity[${r}]`;
    // validateBasicResource, then ValidatePositiveQuantityValue (the quantity's canonical text).
    const value = quantityValue(q);
    if (value < 0n) errs.push(fieldInvalid(at, new GoValue(String(value)), 'must be a valid resource quantity'));
    if (compareQuantities(q, '0') <= 0) errs.push(fieldInvalid(at, String(q), 'must be greater than zero'));
  }
  return errs;
}

/** Go's path.Clean(p) === "/". */
const cleansToRoot = (p: string) => p.startsWith('/') && posix.normalize(p).replace(/\/+$/, '') === '';

/** kube's ValidatePersistentVolumeSpec for a PersistentVolume (not an inline volume's spec). */
function specErrors(spec: Spec, pvName: string, options: Options): FieldError[] {
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(fieldRequired('spec.accessModes'));
  let once = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode as string)) errs.push(fieldNotSupported('spec.accessModes', mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') once = true;
    else if (ACCESS_MODES.includes(mode as string)) other = true;
  }
  if (once && other) errs.push(fieldForbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  errs.push(...capacityErrors(spec.capacity));
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy && !RECLAIM_POLICIES.includes(policy)) errs.push(fieldNotSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));
  const affinity = isSet(spec.nodeAffinity);
  if (affinity) errs.push(...volumeNodeAffinityErrors(isObj(spec.nodeAffinity) ? spec.nodeAffinity : {}, options, 'spec.nodeAffinity'));
  let count = 0;
  for (const kind of SOURCES.filter((k) => isSet(spec[k]))) {
    if (count > 0 && kind !== 'flexVolume') {
      errs.push(fieldForbidden(`spec.${EXTRA_NAME[kind] ?? kind}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...pvSourceErrors(kind, isObj(spec[kind]) ? spec[kind] : {}, pvName, `spec.${SOURCE_FIELD[kind] ?? kind}`));
    if (kind === 'local' && !affinity) errs.push(fieldRequired('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (count === 0) errs.push(fieldRequired('spec', 'must specify a volume type'));
  if (isObj(spec.hostPath) && cleansToRoot(str(spec.hostPath.path)) && policy === 'Recycle') {
    errs.push(fieldForbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = str(spec.storageClassName);
  if (className) for (const msg of isDNS1123Subdomain(className)) errs.push(fieldInvalid('spec.storageClassName', className, msg));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(str(spec.volumeMode))) errs.push(fieldNotSupported('spec.volumeMode', str(spec.volumeMode), VOLUME_MODES));
  if (isSet(spec.volumeAttributesClassName) && options.enableVolumeAttributesClass) {
    const attributesClass = str(spec.volumeAttributesClassName);
    if (!attributesClass) errs.push(fieldRequired('spec.volumeAttributesClassName', 'an empty string is disallowed'));
    else for (const msg of isDNS1123Subdomain(attributesClass)) errs.push(fieldInvalid('spec.volumeAttributesClassName', attributesClass, msg));
    if (!isSet(spec.csi)) errs.push(fieldRequired('spec.csi', 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** pkg/volume/validation's ValidatePersistentVolume: the mount options annotation only on sources that take them. */
function mountOptionErrors(pv: KubeObject): FieldError[] {
  const spec = specOf(pv);
  if (SOURCES.some((kind) => MOUNTABLE.has(kind) && isSet(spec[kind]))) return [];
  if (!Object.hasOwn(pv.metadata?.annotations ?? {}, MOUNT_OPTIONS_ANNOTATION)) return [];
  return [fieldForbidden(`metadata.annotations.${MOUNT_OPTIONS_ANNOTATION}`, 'may not specify mount options for this volume type')];
}

/** ValidatePersistentVolume (its metadata part is the server's generic check). */
const validatePV = (pv: KubeObject, options: Options): FieldError[] => specErrors(specOf(pv), String(pv.metadata?.name ?? ''), options);

/** kube's ValidationOptionsForPersistentVolume for an update. */
function updateOptions(old: KubeObject): Options {
  const spec = specOf(old);
  const required = isObj(spec.nodeAffinity) && isObj(spec.nodeAffinity.required) ? spec.nodeAffinity.required : undefined;
  // helper.HasInvalidLabelValueInNodeSelectorTerms: the values of the match expressions only.
  const invalid = asObjects(required?.nodeSelectorTerms).some((term) =>
    asObjects(term.matchExpressions).some((req) => strings(req.values).some((v) => isLabelValue(v).length > 0)),
  );
  return { enableVolumeAttributesClass: isSet(spec.volumeAttributesClassName), allowInvalidLabelValueInRequiredNodeAffinity: invalid };
}

/** Scalar fields of the sources that are Go pointers (nil differs from the zero value), by source. */
const POINTER_FIELDS: Record<string, string[]> = {
  hostPath: ['type'],
  glusterfs: ['endpointsNamespace'],
  iscsi: ['initiatorName'],
  fc: ['lun'],
  azureFile: ['secretNamespace'],
  azureDisk: ['cachingMode', 'fsType', 'readOnly', 'kind'],
  local: ['fsType'],
};
/** Map fields of the sources (nil and empty are the same). */
const MAP_FIELDS = new Set(['options', 'volumeAttributes']);

/**
 * A source as Go holds it, for apiequality.Semantic.DeepEqual: what is absent, null or Go's zero value where Go
 * has no pointer is left out (empty lists and maps too); objects (pointers to structs) stay even when empty.
 */
function goShape(value: Obj, pointers: readonly string[] = []): Obj {
  const out: Obj = {};
  for (const [key, v] of Object.entries(value)) {
    if (!isSet(v)) continue;
    if (Array.isArray(v)) {
      if (v.length) out[key] = v.map((item) => (isObj(item) ? goShape(item) : item));
    } else if (isObj(v)) {
      if (!MAP_FIELDS.has(key)) out[key] = goShape(v);
      else if (Object.keys(v).length) out[key] = v;
    } else if (pointers.includes(key) || (v !== '' && v !== 0 && v !== false)) {
      out[key] = v;
    }
  }
  return out;
}

/** kube's check that spec.persistentVolumeSource did not change (a CSI volume may gain a controllerExpandSecretRef). */
function sourceChanged(spec: Spec, oldSpec: Spec): boolean {
  const shape = (s: Spec, dropExpandRef: boolean) => {
    const sources: Obj = {};
    for (const kind of SOURCES) {
      if (!isSet(s[kind])) continue;
      const source = goShape(isObj(s[kind]) ? s[kind] : {}, POINTER_FIELDS[kind]);
      if (kind === 'csi' && dropExpandRef) delete source.controllerExpandSecretRef;
      sources[kind] = source;
    }
    return sources;
  };
  const oldCSI = isObj(oldSpec.csi) ? oldSpec.csi : undefined;
  const newCSI = isObj(spec.csi) ? spec.csi : undefined;
  const added = !!oldCSI && !isSet(oldCSI.controllerExpandSecretRef) && !!newCSI && isSet(newCSI.controllerExpandSecretRef);
  return !isDeepStrictEqual(shape(spec, added), shape(oldSpec, false));
}

/** The beta node labels a PV's node affinity may move to their GA names (kube's betaToGALabel). */
const BETA_TO_GA: Record<string, string> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/instance-type': 'node.kubernetes.io/instance-type',
};

/** Semantic equality of two lists (nil and empty the same), item by item. */
const sameList = (a: unknown, b: unknown, same: (x: unknown, y: unknown) => boolean) => {
  const [l, r] = [Array.isArray(a) ? a : [], Array.isArray(b) ? b : []];
  return l.length === r.length && l.every((x, i) => same(x, r[i]));
};

/** A node selector requirement unchanged but for an old beta key now its GA name (kube's masked equality). */
function sameRequirement(now: unknown, was: unknown): boolean {
  const [n, o] = [isObj(now) ? now : {}, isObj(was) ? was : {}];
  const key = str(o.key) !== str(n.key) && BETA_TO_GA[str(o.key)] === str(n.key) ? str(n.key) : str(o.key);
  return str(n.key) === key && str(n.operator) === str(o.operator) && sameList(n.values, o.values, (x, y) => str(x) === str(y));
}

/** kube's validatePvNodeAffinity: the stored node affinity stays, but for beta labels moved to their GA names. */
function sameNodeAffinity(now: unknown, was: unknown): boolean {
  if (!isSet(now) || !isSet(was)) return !isSet(now) && !isSet(was);
  const [n, o] = [isObj(now) ? now.required : undefined, isObj(was) ? was.required : undefined];
  if (!isSet(n) || !isSet(o)) return !isSet(n) && !isSet(o);
  const terms = (s: unknown) => (isObj(s) ? s.nodeSelectorTerms : undefined);
  return sameList(terms(n), terms(o), (x, y) => {
    const [a, b] = [isObj(x) ? x : {}, isObj(y) ? y : {}];
    return sameList(a.matchExpressions, b.matchExpressions, sameRequirement) && sameList(a.matchFields, b.matchFields, sameRequirement);
  });
}

/**
 * Go's `%#v` of the new node affinity, as kube prints it: the struct holds a pointer, whose address kube's message
 * shows and no one can reproduce (`…` here).
 */
function goNodeAffinity(affinity: unknown): GoValue | null {
  if (!isSet(affinity)) return null;
  const required = isObj(affinity) && isSet(affinity.required) ? '(*core.NodeSelector)(…)' : '(*core.NodeSelector)(nil)';
  return new GoValue(`core.VolumeNodeAffinity{Required:${required}}`);
}

/**
 * kube's ValidatePersistentVolumeUpdate after its ValidatePersistentVolume: the source never changes (a CSI volume
 * may gain a controllerExpandSecretRef), nor does the volume mode; node affinity, once set, only moves beta labels to
 * GA ones; a volume attributes class only changes with its gate on.
 */
function updateErrors(pv: KubeObject, old: KubeObject, options: Options): FieldError[] {
  const [spec, oldSpec] = [specOf(pv), specOf(old)];
  const errs: FieldError[] = [];
  // kube's message goes on with a go-cmp diff of the two sources, which go-cmp itself makes unstable on purpose.
  if (sourceChanged(spec, oldSpec)) errs.push(fieldForbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  if (!isDeepStrictEqual(spec.volumeMode ?? null, oldSpec.volumeMode ?? null)) errs.push(fieldInvalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  if (isSet(oldSpec.nodeAffinity) && !sameNodeAffinity(spec.nodeAffinity, oldSpec.nodeAffinity)) {
    errs.push(fieldInvalid('nodeAffinity', goNodeAffinity(spec.nodeAffinity), 'field is immutable, except for updating from beta label to GA'));
  }
  const [attributesClass, oldAttributesClass] = [spec.volumeAttributesClassName ?? null, oldSpec.volumeAttributesClassName ?? null];
  if (attributesClass !== oldAttributesClass) {
    errs.push(fieldForbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
    if (options.enableVolumeAttributesClass && oldAttributesClass !== null && attributesClass === null) {
      errs.push(fieldForbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
    }
  }
  return errs;
}

/**
 * The status subresource's PrepareForUpdate: a new phase gets a new lastPhaseTransitionTime unless the client set
 * another one; the same phase keeps the stored time unless the client set one.
 */
function stampPhaseTransition(pv: PV, old: PV): void {
  const status: Obj = isObj(pv.status) ? pv.status : (pv.status = {});
  const oldStatus: Obj = isObj(old.status) ? old.status : {};
  const [time, oldTime] = [status.lastPhaseTransitionTime, oldStatus.lastPhaseTransitionTime];
  const sameInstant = isSet(time) && isSet(oldTime) && Date.parse(str(time)) === Date.parse(str(oldTime));
  if (str(status.phase) === str(oldStatus.phase)) {
    if (!isSet(time) && isSet(oldTime)) status.lastPhaseTransitionTime = oldTime;
  } else if (!isSet(time) || sameInstant) {
    status.lastPhaseTransitionTime = nowTimestamp();
  }
}

/** pvutil.DropDisabledSpecFields with VolumeAttributesClass off: a class is kept only where the stored volume had one. */
function dropVolumeAttributesClass(pv: KubeObject, old?: KubeObject): void {
  const spec = (pv as PV).spec;
  if (isObj(spec) && !(old && isSet(specOf(old).volumeAttributesClassName))) delete spec.volumeAttributesClassName;
}

/** The deprecated sources kube warns of, in its order, with the path it names (`storageOS`, as kube spells it). */
const DEPRECATED_SOURCES: [string, string, string][] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** pvutil.GetWarningsForPersistentVolume, on create and update. */
function persistentVolumeWarnings(pv: KubeObject): string[] {
  const spec = specOf(pv);
  const warnings: string[] = [];
  if (Object.hasOwn(pv.metadata?.annotations ?? {}, BETA_STORAGE_CLASS_ANNOTATION)) {
    warnings.push(`metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]: deprecated since v1.8; use "storageClassName" attribute instead`);
  }
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    warnings.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  }
  const required = isObj(spec.nodeAffinity) && isObj(spec.nodeAffinity.required) ? spec.nodeAffinity.required : undefined;
  asObjects(required?.nodeSelectorTerms).forEach((term, i) =>
    asObjects(term.matchExpressions).forEach((req, j) => {
      const message = DEPRECATED_NODE_LABELS[str(req.key)];
      if (message) warnings.push(`spec.nodeAffinity.required.nodeSelectorTerms[${i}].matchExpressions[${j}].key: ${str(req.key)} is ${message}`);
    }),
  );
  for (const [kind, path, message] of DEPRECATED_SOURCES) if (isSet(spec[kind])) warnings.push(`spec.${path}: ${message}`);
  return warnings;
}

/**
 * PersistentVolumes (kube 1.33's pkg/registry/core/persistentvolume): a new volume is Pending since now; its spec
 * validated as kube's ValidatePersistentVolumeSpec does, with the mount options annotation refused on sources that
 * take none. On update kube runs ValidatePersistentVolume twice (its strategy, then ValidatePersistentVolumeUpdate,
 * which starts with it), so each spec error is reported twice, then the update's own rules. A status update sets
 * lastPhaseTransitionTime on a phase change; kube validates nothing of it but metadata. Writes warn of deprecated
 * sources, node labels, the Recycle policy and the beta storage class annotation.
 */
export const persistentVolumeStrategy: Strategy = {
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: nowTimestamp() };
    dropVolumeAttributesClass(obj);
  },
  prepareForUpdate(obj, old) {
    dropVolumeAttributesClass(obj, old);
  },
  validate: (obj) => [...validatePV(obj, CREATE_OPTIONS), ...mountOptionErrors(obj)],
  prepareForStatusUpdate: (obj, old) => stampPhaseTransition(obj as PV, old as PV),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource) return [];
    const options = updateOptions(old);
    return [...validatePV(obj, options), ...mountOptionErrors(obj), ...validatePV(obj, options), ...updateErrors(obj, old, options)];
  },
  // The status strategy warns of nothing.
  warnings: (obj, _old, ctx) => (ctx?.subresource ? [] : persistentVolumeWarnings(obj)),
};
