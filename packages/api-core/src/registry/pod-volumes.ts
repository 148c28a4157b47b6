import {
  asObjects,
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotFound,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  GoValue,
  goStringSlice,
  isDNS1123Label,
  isDNS1123Subdomain,
  isObj,
  str,
  validateAnnotations,
  validateLabels,
  validateLabelSelector,
  type FieldError,
  type Obj,
} from '@kapi/apimachinery';
import { claimSpecErrors } from './claim-spec.js';
import { downwardAPIFileErrors } from './pod-env.js';
import { backstepErrors, fileModeErrors, localDescendingPathErrors, localNonReservedPathErrors } from './pod-paths.js';
import { compareQuantities } from './quantity.js';

// A pod's volumes, and each container's volume mounts and devices, as kube 1.33 validates them (ValidateVolumes,
// validateVolumeSource and the source validators, ValidateVolumeMounts, ValidateVolumeDevices). The sources checked
// field by field are the ones in use today (emptyDir, hostPath, gitRepo, secret, nfs, persistentVolumeClaim,
// downwardAPI, configMap, projected, csi, ephemeral) and the older in-tree ones (GCE and AWS disks, iscsi, glusterfs,
// flocker, rbd, cinder, cephfs, quobyte, fc, flexVolume, azureFile, azureDisk, vsphereVolume, photonPersistentDisk,
// portworxVolume, scaleIO, storageos), with kube's validators for a Pod's volumes (a PersistentVolume's sources are
// validated elsewhere); for an image volume only that it is the volume's one source.

const isSet = (v: unknown) => v !== undefined && v !== null;

/** kube's validateVolumeSource order: the first source a volume has counts, every later one is "more than 1". */
const SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'flocker', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap',
  'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO',
  'csi', 'ephemeral', 'image',
];
/** The field names kube's "more than 1 volume type" errors use where they differ from the JSON names. */
const EXTRA_NAME: Record<string, string> = { cephfs: 'cephFS', downwardAPI: 'downwarAPI' };
/** The field a source's own errors are under where kube names it otherwise: a GCE disk's are under `persistentDisk`. */
const SOURCE_FIELD: Record<string, string> = { gcePersistentDisk: 'persistentDisk' };
/**
 * In-tree sources whose kube validators only require some fields (Required with no detail), each in the order kube
 * checks them: validateGlusterfsVolumeSource, validateRBDVolumeSource, validateCephFSVolumeSource, validateAzureFile,
 * validateVsphereVolumeSource, validatePhotonPersistentDiskVolumeSource, validatePortworxVolumeSource and
 * validateScaleIOVolumeSource. The other in-tree sources have their own functions below.
 */
const REQUIRED_FIELDS: Record<string, string[]> = {
  glusterfs: ['endpoints', 'path'],
  rbd: ['monitors', 'image'],
  cephfs: ['monitors'],
  azureFile: ['secretName', 'shareName'],
  vsphereVolume: ['volumePath'],
  photonPersistentDisk: ['pdID'],
  portworxVolume: ['volumeID'],
  scaleIO: ['gateway', 'system', 'volumeName'],
};
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

const empty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : !str(v));
/** kube's validateKeyToPath. */
function keyToPathErrors(kp: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(kp.key)) errs.push(fieldRequired(`${field}.key`));
  if (!str(kp.path)) errs.push(fieldRequired(`${field}.path`));
  errs.push(...localNonReservedPathErrors(str(kp.path), `${field}.path`));
  errs.push(...fileModeErrors(kp.mode, `${field}.mode`));
  return errs;
}

/** Secret and ConfigMap volumes: a name (under `nameField`), a file mode, and their items. */
function keyedSourceErrors(source: Obj, nameField: string, field: string): FieldError[] {
  const errs = str(source[nameField]) ? [] : [fieldRequired(`${field}.${nameField}`)];
  errs.push(...fileModeErrors(source.defaultMode, `${field}.defaultMode`));
  asObjects(source.items).forEach((kp, i) => errs.push(...keyToPathErrors(kp, `${field}.items[${i}]`)));
  return errs;
}

/** kube's validateProjectionSources, with the projected volume's own file mode first. */
function projectedErrors(projected: Obj, field: string): FieldError[] {
  const errs = fileModeErrors(projected.defaultMode, `${field}.defaultMode`);
  const paths = new Set<string>();
  // A path used twice is reported on the projected volume, with the source's name (or the path) as the value.
  const claim = (path: string, value: string) => {
    if (paths.has(path)) errs.push(fieldInvalid(field, value, 'conflicting duplicate paths'));
    else paths.add(path);
  };
  asObjects(projected.sources).forEach((source, i) => {
    const at = `${field}.sources[${i}]`;
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const s = source[kind];
      if (!isObj(s)) continue;
      count++;
      if (!str(s.name)) errs.push(fieldRequired(`${at}.${kind}.name`));
      asObjects(s.items).forEach((kp, j) => {
        errs.push(...keyToPathErrors(kp, `${at}.${kind}.items[${j}]`));
        if (str(kp.path)) claim(str(kp.path), str(s.name));
      });
    }
    if (isObj(source.downwardAPI)) {
      count++;
      for (const file of asObjects(source.downwardAPI.items)) {
        errs.push(...downwardAPIFileErrors(file, `${at}.downwardAPI`));
        if (str(file.path)) claim(str(file.path), str(file.path));
      }
    }
    if (isObj(source.serviceAccountToken)) {
      count++;
      const token = source.serviceAccountToken;
      const seconds = typeof token.expirationSeconds === 'number' ? token.expirationSeconds : 0;
      const secondsField = `${at}.serviceAccountToken.expirationSeconds`;
      if (seconds < 600) errs.push(fieldInvalid(secondsField, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(fieldInvalid(secondsField, seconds, 'may not specify a duration larger than 2^32 seconds'));
      // kube reports the token's path on the projected volume.
      if (!str(token.path)) errs.push(fieldRequired(`${field}.path`));
      else errs.push(...localNonReservedPathErrors(str(token.path), `${field}.path`));
    }
    if (isObj(source.clusterTrustBundle)) {
      count++;
      errs.push(...clusterTrustBundleErrors(source.clusterTrustBundle, `${at}.clusterTrustBundle`));
      claim(str(source.clusterTrustBundle.path), str(source.clusterTrustBundle.path));
    }
    if (count > 1) errs.push(fieldForbidden(at, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** A projected clusterTrustBundle: a name or a signer name (with a selector), and a path. */
function clusterTrustBundleErrors(bundle: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const byName = isSet(bundle.name);
  const bySigner = isSet(bundle.signerName);
  if (byName && bySigner) errs.push(fieldInvalid(field, bundle, 'only one of name and signerName may be used'));
  else if (byName) {
    if (!str(bundle.name)) errs.push(fieldRequired(`${field}.name`, 'must be a valid object name'));
    if (isSet(bundle.labelSelector)) errs.push(fieldInvalid(`${field}.labelSelector`, bundle.labelSelector, 'labelSelector must be unset if name is specified'));
  } else if (bySigner) {
    if (!str(bundle.signerName)) errs.push(fieldRequired(`${field}.signerName`, 'must be a valid signer name'));
    errs.push(...validateLabelSelector(bundle.labelSelector, `${field}.labelSelector`));
  } else {
    errs.push(fieldRequired(field, 'either name or signerName must be specified'));
  }
  if (!str(bundle.path)) errs.push(fieldRequired(`${field}.path`));
  errs.push(...localNonReservedPathErrors(str(bundle.path), `${field}.path`));
  return errs;
}

/** kube's ValidateCSIDriverName. */
export function csiDriverErrors(driver: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(fieldRequired(field));
  if (driver.length > 63) errs.push(fieldTooLong(field, 63));
  for (const msg of isDNS1123Subdomain(driver.toLowerCase())) errs.push(fieldInvalid(field, driver, msg));
  return errs;
}

/** kube's ValidateTemplateObjectMeta: labels and annotations only. */
function templateMetaErrors(meta: unknown, field: string): FieldError[] {
  if (!isObj(meta)) return [];
  const errs = [...validateAnnotations(meta.annotations, `${field}.annotations`), ...validateLabels(meta.labels, `${field}.labels`)];
  for (const key of Object.keys(meta)) {
    if (key !== 'labels' && key !== 'annotations' && isSet(meta[key])) errs.push(fieldForbidden(`${field}.${key}`, 'cannot be set'));
  }
  return errs;
}

const int = (v: unknown) => (typeof v === 'number' ? v : 0);
/** Go's len() of a string: its UTF-8 bytes. */
export const byteLength = (s: string) => new TextEncoder().encode(s).length;
const PD_PARTITION = 'must be between 1 and 255, inclusive';
export const LUN_RANGE = 'must be between 0 and 255, inclusive';
/** kube's message for an iSCSI volume (or PersistentVolume) whose `<name>:<portal>` is over 64 bytes. */
export const ISCSI_NAME_LENGTH = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';

/** kube's validateGCEPersistentDiskVolumeSource and validateAWSElasticBlockStoreVolumeSource (whose range message says 1). */
function diskErrors(disk: Obj, nameField: 'pdName' | 'volumeID', field: string): FieldError[] {
  const errs = str(disk[nameField]) ? [] : [fieldRequired(`${field}.${nameField}`)];
  const partition = int(disk.partition);
  if (partition < 0 || partition > 255) errs.push(fieldInvalid(`${field}.partition`, partition, PD_PARTITION));
  return errs;
}

/** kube's iSCSI name formats (iscsiInitiatorIqnRegex, ...Eui..., ...Naa...), in Go's RE2 meaning (`\s` is [\t\n\f\r ]). */
const ISCSI_FORMATS: [string, RegExp][] = [
  ['iqn', /iqn\.\d{4}-\d{2}\.([0-9A-Za-z.-]+)(:[^,;*&$|\t\n\f\r ]+)$/],
  ['eui', /^eui[^\n][0-9A-Za-z]{16}$/u],
  ['naa', /^naa[^\n][0-9A-Za-z]{32}$/u],
];

/** kube's checks of an iSCSI qualified name (`iqn`, `initiatorName`): one of three prefixes, and that prefix's format. */
export function iscsiNameErrors(name: string, field: string): FieldError[] {
  const format = ISCSI_FORMATS.find(([prefix]) => name.startsWith(prefix));
  if (!format) return [fieldInvalid(field, name, 'must be valid format starting with iqn, eui, or naa')];
  return format[1].test(name) ? [] : [fieldInvalid(field, name, 'must be valid format')];
}

/** kube's validateISCSIVolumeSource (the initiator name's errors are under `initiatorname`, as kube spells it). */
function iscsiErrors(iscsi: Obj, field: string): FieldError[] {
  const errs = str(iscsi.targetPortal) ? [] : [fieldRequired(`${field}.targetPortal`)];
  if (!str(iscsi.iqn)) errs.push(fieldRequired(`${field}.iqn`));
  else errs.push(...iscsiNameErrors(str(iscsi.iqn), `${field}.iqn`));
  const lun = int(iscsi.lun);
  if (lun < 0 || lun > 255) errs.push(fieldInvalid(`${field}.lun`, lun, LUN_RANGE));
  if ((iscsi.chapAuthDiscovery === true || iscsi.chapAuthSession === true) && !isSet(iscsi.secretRef)) errs.push(fieldRequired(`${field}.secretRef`));
  if (isSet(iscsi.initiatorName)) errs.push(...iscsiNameErrors(str(iscsi.initiatorName), `${field}.initiatorname`));
  return errs;
}

/** kube's check, in validateVolumeSource, of an iSCSI volume with an initiator name: `<volume>:<portal>` fits 64 bytes. */
function iscsiVolumeNameErrors(iscsi: Obj, volumeName: string, field: string): FieldError[] {
  if (!isSet(iscsi.initiatorName) || byteLength(`${volumeName}:${str(iscsi.targetPortal)}`) <= 64) return [];
  return [fieldInvalid(field, volumeName, ISCSI_NAME_LENGTH)];
}

/** kube's validateFlockerVolumeSource: a dataset name (without `/`) or UUID, not both. */
function flockerErrors(flocker: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(flocker.datasetName);
  const uuid = str(flocker.datasetUUID);
  if (!name && !uuid) errs.push(fieldRequired(field, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) errs.push(fieldInvalid(field, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(fieldInvalid(`${field}.datasetName`, name, "must not contain '/'"));
  return errs;
}

/** kube's validateCinderVolumeSource. */
function cinderErrors(cinder: Obj, field: string): FieldError[] {
  const errs = str(cinder.volumeID) ? [] : [fieldRequired(`${field}.volumeID`)];
  if (isSet(cinder.secretRef) && !str(isObj(cinder.secretRef) ? cinder.secretRef.name : '')) errs.push(fieldRequired(`${field}.secretRef.name`));
  return errs;
}

/** kube's validateFlexVolumeSource: a driver, and no option in the kubernetes.io or k8s.io namespaces. */
function flexVolumeErrors(flex: Obj, field: string): FieldError[] {
  const errs = str(flex.driver) ? [] : [fieldRequired(`${field}.driver`)];
  for (const key of Object.keys(isObj(flex.options) ? flex.options : {})) {
    const slash = key.indexOf('/');
    const normalized = `.${(slash < 0 ? key : key.slice(0, slash)).toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) {
      errs.push(fieldInvalid(`${field}.options[${key}]`, key, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return errs;
}

/** Whether Go's net.SplitHostPort accepts `hostport`: a last colon before the port, a bracketed host holding the others. */
function splitsHostPort(hostport: string): boolean {
  const colon = hostport.lastIndexOf(':');
  if (colon < 0) return false;
  let from = 0;
  let after = 0;
  if (hostport.startsWith('[')) {
    const end = hostport.indexOf(']');
    if (end < 0 || end + 1 !== colon) return false;
    from = 1;
    after = end + 1;
  } else if (hostport.slice(0, colon).includes(':')) {
    return false;
  }
  return !hostport.slice(from).includes('[') && !hostport.slice(after).includes(']');
}

const QUOBYTE_REGISTRY = 'must be a host:port pair or multiple pairs separated by commas';
/** kube's validateQuobyteVolumeSource: a registry of host:port pairs (a too long tenant stops its check), and a volume. */
function quobyteErrors(quobyte: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const registry = str(quobyte.registry);
  if (!registry) errs.push(fieldRequired(`${field}.registry`, QUOBYTE_REGISTRY));
  else if (byteLength(str(quobyte.tenant)) >= 65) errs.push(fieldRequired(`${field}.tenant`, 'must be a UUID and may not exceed a length of 64 characters'));
  else for (const pair of registry.split(',')) if (!splitsHostPort(pair)) errs.push(fieldInvalid(`${field}.registry`, registry, QUOBYTE_REGISTRY));
  if (!str(quobyte.volume)) errs.push(fieldRequired(`${field}.volume`));
  return errs;
}

/** kube's validateFCVolumeSource: target WWNs with a lun, or WWIDs. */
function fcErrors(fc: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = Array.isArray(fc.targetWWNs) ? fc.targetWWNs.map(str) : [];
  const wwids = Array.isArray(fc.wwids) ? fc.wwids : [];
  if (wwns.length === 0 && wwids.length === 0) errs.push(fieldRequired(`${field}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) {
    errs.push(fieldInvalid(`${field}.targetWWNs`, new GoValue(goStringSlice(wwns)), 'targetWWNs and wwids can not be specified simultaneously'));
  }
  if (wwns.length !== 0) {
    if (!isSet(fc.lun)) errs.push(fieldRequired(`${field}.lun`, 'lun is required if targetWWNs is specified'));
    else if (int(fc.lun) < 0 || int(fc.lun) > 255) errs.push(fieldInvalid(`${field}.lun`, int(fc.lun), LUN_RANGE));
  }
  return errs;
}

const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];
/** kube's validateAzureDisk: a name and URI, a known caching mode and kind, and a URI of the kind's form. */
function azureDiskErrors(disk: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const uri = str(disk.diskURI);
  if (!str(disk.diskName)) errs.push(fieldRequired(`${field}.diskName`));
  if (!uri) errs.push(fieldRequired(`${field}.diskURI`));
  if (isSet(disk.cachingMode) && !AZURE_CACHING_MODES.includes(str(disk.cachingMode))) errs.push(fieldNotSupported(`${field}.cachingMode`, disk.cachingMode, AZURE_CACHING_MODES));
  if (isSet(disk.kind) && !AZURE_DISK_KINDS.includes(str(disk.kind))) errs.push(fieldNotSupported(`${field}.kind`, disk.kind, AZURE_DISK_KINDS));
  // The defaulted kind (Shared) is a blob disk: an https:// URI; a managed disk's is an ARM resource ID.
  if (disk.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(fieldNotSupported(`${field}.diskURI`, uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  }
  if (isSet(disk.kind) && disk.kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(fieldNotSupported(`${field}.diskURI`, uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
}

/** kube's validateStorageOSVolumeSource: DNS-label volume name and namespace, and a named secret when one is given. */
function storageOSErrors(storageos: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(storageos.volumeName);
  const namespace = str(storageos.volumeNamespace);
  if (!name) errs.push(fieldRequired(`${field}.volumeName`));
  else for (const msg of isDNS1123Label(name)) errs.push(fieldInvalid(`${field}.volumeName`, name, msg));
  if (namespace) for (const msg of isDNS1123Label(namespace)) errs.push(fieldInvalid(`${field}.volumeNamespace`, namespace, msg));
  if (isSet(storageos.secretRef) && !str(isObj(storageos.secretRef) ? storageos.secretRef.name : '')) errs.push(fieldRequired(`${field}.secretRef.name`));
  return errs;
}

/** The checks of the one source a volume has. */
export function sourceErrors(kind: string, source: Obj, field: string, volumeName: string, podName: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  switch (kind) {
    case 'emptyDir':
      if (isSet(source.sizeLimit) && compareQuantities(source.sizeLimit, '0') < 0) errs.push(fieldForbidden(`${field}.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
      break;
    case 'hostPath':
      if (!str(source.path)) return [fieldRequired(`${field}.path`)];
      errs.push(...backstepErrors(str(source.path), `${field}.path`));
      if (isSet(source.type) && !HOST_PATH_TYPES.includes(str(source.type))) errs.push(fieldNotSupported(`${field}.type`, source.type, HOST_PATH_TYPES));
      break;
    case 'gitRepo':
      if (!str(source.repository)) errs.push(fieldRequired(`${field}.repository`));
      errs.push(...localDescendingPathErrors(str(source.directory), `${field}.directory`));
      break;
    case 'secret':
      return keyedSourceErrors(source, 'secretName', field);
    case 'configMap':
      return keyedSourceErrors(source, 'name', field);
    case 'nfs':
      if (!str(source.server)) errs.push(fieldRequired(`${field}.server`));
      if (!str(source.path)) errs.push(fieldRequired(`${field}.path`));
      if (!str(source.path).startsWith('/')) errs.push(fieldInvalid(`${field}.path`, str(source.path), 'must be an absolute path'));
      break;
    case 'persistentVolumeClaim':
      if (!str(source.claimName)) errs.push(fieldRequired(`${field}.claimName`));
      break;
    case 'downwardAPI':
      errs.push(...fileModeErrors(source.defaultMode, `${field}.defaultMode`));
      for (const file of asObjects(source.items)) errs.push(...downwardAPIFileErrors(file, field));
      break;
    case 'projected':
      return projectedErrors(source, field);
    case 'csi': {
      errs.push(...csiDriverErrors(str(source.driver), `${field}.driver`));
      const ref = source.nodePublishSecretRef;
      if (isObj(ref)) {
        if (!str(ref.name)) errs.push(fieldRequired(`${field}.nodePublishSecretRef.name`));
        // kube reports a bad secret name under `csi.name`.
        else for (const msg of isDNS1123Subdomain(str(ref.name))) errs.push(fieldInvalid(`${field}.name`, str(ref.name), msg));
      }
      break;
    }
    case 'ephemeral':
      // kube's ValidatePersistentVolumeClaimTemplate: the template's labels and annotations, and the claim's spec.
      if (!isObj(source.volumeClaimTemplate)) errs.push(fieldRequired(`${field}.volumeClaimTemplate`));
      else {
        errs.push(...templateMetaErrors(source.volumeClaimTemplate.metadata, `${field}.volumeClaimTemplate.metadata`));
        errs.push(...claimSpecErrors(source.volumeClaimTemplate.spec, `${field}.volumeClaimTemplate.spec`));
      }
      // The claim made for the pod is named <pod>-<volume>; kube checks that name (on `ephemeral.name`).
      if (podName && volumeName) {
        const claim = `${podName}-${volumeName}`;
        for (const msg of isDNS1123Subdomain(claim)) errs.push(fieldInvalid(`${field}.name`, volumeName, `PVC name "${claim}": ${msg}`));
      }
      break;
    case 'gcePersistentDisk':
      return diskErrors(source, 'pdName', field);
    case 'awsElasticBlockStore':
      return diskErrors(source, 'volumeID', field);
    case 'iscsi':
      return iscsiErrors(source, field);
    case 'flocker':
      return flockerErrors(source, field);
    case 'cinder':
      return cinderErrors(source, field);
    case 'quobyte':
      return quobyteErrors(source, field);
    case 'fc':
      return fcErrors(source, field);
    case 'flexVolume':
      return flexVolumeErrors(source, field);
    case 'azureDisk':
      return azureDiskErrors(source, field);
    case 'storageos':
      return storageOSErrors(source, field);
    default:
      for (const name of REQUIRED_FIELDS[kind] ?? []) if (empty(source[name])) errs.push(fieldRequired(`${field}.${name}`));
  }
  return errs;
}

/**
 * kube's ValidateVolumes: each volume's source checks, then its name (a DNS label, given once). The volumes that
 * pass are the ones mounts may name (a mount of a refused volume is also "not found", as in kube). With the pod's
 * name (a Pod, not a template), a claim volume may not name the claim an ephemeral volume of the pod creates.
 */
export function validateVolumes(volumes: Obj[], field: string, podName?: string): { errs: FieldError[]; sources: Map<string, string> } {
  const errs: FieldError[] = [];
  const sources = new Map<string, string>();
  const created = new Set(podName ? volumes.filter((v) => isSet(v.ephemeral)).map((v) => `${podName}-${str(v.name)}`) : []);
  volumes.forEach((v, i) => {
    const at = `${field}[${i}]`;
    const name = str(v.name);
    const kinds = SOURCES.filter((s) => isSet(v[s]));
    const el: FieldError[] = [];
    kinds.forEach((kind, k) => {
      const source = isObj(v[kind]) ? v[kind] : {};
      if (k === 0) el.push(...sourceErrors(kind, source, `${at}.${SOURCE_FIELD[kind] ?? kind}`, name, podName));
      else el.push(fieldForbidden(`${at}.${EXTRA_NAME[kind] ?? kind}`, 'may not specify more than 1 volume type'));
      // kube checks an iSCSI volume's name whether or not iscsi is the volume's first source.
      if (kind === 'iscsi') el.push(...iscsiVolumeNameErrors(source, name, `${at}.name`));
    });
    if (kinds.length === 0) el.push(fieldRequired(at, 'must specify a volume type'));
    if (!name) el.push(fieldRequired(`${at}.name`));
    else for (const msg of isDNS1123Label(name)) el.push(fieldInvalid(`${at}.name`, name, msg));
    if (sources.has(name)) el.push(fieldDuplicate(`${at}.name`, name));
    if (el.length === 0) sources.set(name, kinds[0]);
    else errs.push(...el);
    const claim = isObj(v.persistentVolumeClaim) ? str(v.persistentVolumeClaim.claimName) : '';
    if (claim && created.has(claim)) errs.push(fieldInvalid(`${at}.persistentVolumeClaim.claimName`, claim, 'must not reference a PVC that gets created for an ephemeral volume'));
  });
  return { errs, sources };
}

const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

/** kube's ValidateVolumeMounts (subpath and propagation errors on the list's path, as kube reports them). */
export function volumeMountErrors(container: Obj, volumes: Map<string, string>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const devices = new Map(asObjects(container.volumeDevices).map((d) => [str(d.name), str(d.devicePath)]));
  const devicePaths = new Set(devices.values());
  const privileged = isObj(container.securityContext) && container.securityContext.privileged === true;
  asObjects(container.volumeMounts).forEach((m, i) => {
    const at = `${field}[${i}]`;
    const name = str(m.name);
    const path = str(m.mountPath);
    if (!name) errs.push(fieldRequired(`${at}.name`));
    if (!volumes.has(name)) errs.push(fieldNotFound(`${at}.name`, name));
    if (!path) errs.push(fieldRequired(`${at}.mountPath`));
    if (paths.has(path)) errs.push(fieldInvalid(`${at}.mountPath`, path, 'must be unique'));
    paths.add(path);
    if (devices.has(name)) errs.push(fieldInvalid(`${at}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(path)) errs.push(fieldInvalid(`${at}.mountPath`, path, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (volumes.get(name) === 'image') {
      if (subPath) errs.push(fieldInvalid(`${at}.subPath`, subPath, 'not allowed in image volume sources'));
      if (subPathExpr) errs.push(fieldInvalid(`${at}.subPathExpr`, subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath) errs.push(...localDescendingPathErrors(subPath, `${field}.subPath`));
    if (subPathExpr) {
      if (subPath) errs.push(fieldInvalid(`${at}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPathErrors(subPathExpr, `${field}.subPathExpr`));
    }
    if (isSet(m.mountPropagation)) {
      if (!PROPAGATIONS.includes(str(m.mountPropagation))) errs.push(fieldNotSupported(`${field}.mountPropagation`, m.mountPropagation, PROPAGATIONS));
      if (m.mountPropagation === 'Bidirectional' && !privileged) errs.push(fieldForbidden(`${field}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    if (isSet(m.recursiveReadOnly)) {
      const rro = str(m.recursiveReadOnly);
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (m.readOnly !== true) errs.push(fieldForbidden(`${field}.recursiveReadOnly`, 'may only be specified when readOnly is true'));
        if (isSet(m.mountPropagation) && m.mountPropagation !== 'None') errs.push(fieldForbidden(`${field}.recursiveReadOnly`, 'may only be specified when mountPropagation is None or not specified'));
      } else if (rro !== 'Disabled') {
        errs.push(fieldNotSupported(`${field}.recursiveReadOnly`, rro, RECURSIVE_READ_ONLY));
      }
    }
  });
  return errs;
}

/** kube's ValidateVolumeDevices: block devices only from claims, unique names and paths, none also mounted. */
export function volumeDeviceErrors(container: Obj, volumes: Map<string, string>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const paths = new Set<string>();
  const mounts = new Map(asObjects(container.volumeMounts).map((m) => [str(m.name), str(m.mountPath)]));
  const mountPaths = new Set(mounts.values());
  asObjects(container.volumeDevices).forEach((d, i) => {
    const at = `${field}[${i}]`;
    const name = str(d.name);
    const path = str(d.devicePath);
    const kind = volumes.get(name);
    if (!name) errs.push(fieldRequired(`${at}.name`));
    if (names.has(name)) errs.push(fieldInvalid(`${at}.name`, name, 'must be unique'));
    if (kind !== undefined && kind !== 'persistentVolumeClaim' && kind !== 'ephemeral') {
      errs.push(fieldInvalid(`${at}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (kind === undefined) errs.push(fieldNotFound(`${at}.name`, name));
    if (!path) errs.push(fieldRequired(`${at}.devicePath`));
    if (paths.has(path)) errs.push(fieldInvalid(`${at}.devicePath`, path, 'must be unique'));
    if (path && path.split('/').includes('..')) errs.push(fieldInvalid(`${at}.devicePath`, path, "can not contain backsteps ('..')"));
    else paths.add(path);
    if (mounts.has(name)) errs.push(fieldInvalid(`${at}.name`, name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(path)) errs.push(fieldInvalid(`${at}.devicePath`, path, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}
