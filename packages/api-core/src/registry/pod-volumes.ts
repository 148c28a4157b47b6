import {
  asObjects,
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotFound,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
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
// downwardAPI, configMap, projected, csi, ephemeral) and the required fields of the in-tree ones; for the others
// (iscsi, fc, azureDisk, storageos, quobyte, flocker, GCE and AWS disks...) only that a volume has one source.

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
/** In-tree sources whose validators only require some fields (Required with no detail). */
const REQUIRED_FIELDS: Record<string, string[]> = {
  glusterfs: ['endpoints', 'path'],
  rbd: ['monitors', 'image'],
  cinder: ['volumeID'],
  cephfs: ['monitors'],
  flexVolume: ['driver'],
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
function csiDriverErrors(driver: string, field: string): FieldError[] {
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

/** The checks of the one source a volume has. */
function sourceErrors(kind: string, source: Obj, field: string, volumeName: string, podName: string | undefined): FieldError[] {
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
    if (kinds.length === 0) el.push(fieldRequired(at, 'must specify a volume type'));
    else {
      const source = v[kinds[0]];
      el.push(...sourceErrors(kinds[0], isObj(source) ? source : {}, `${at}.${kinds[0]}`, name, podName));
      for (const extra of kinds.slice(1)) el.push(fieldForbidden(`${at}.${EXTRA_NAME[extra] ?? extra}`, 'may not specify more than 1 volume type'));
    }
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
