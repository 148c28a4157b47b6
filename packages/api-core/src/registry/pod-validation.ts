import { isDeepStrictEqual } from 'node:util';
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotFound,
  fieldNotSupported,
  fieldRequired,
  isDNS1123Label,
  isObj,
  isPortName,
  str,
  type FieldError,
  type KubeObject,
  type Obj,
} from '@kapi/apimachinery';
import { PORT_PROTOCOLS, portNumberErrors } from './ports.js';

// The parts of kube 1.33's ValidatePodCreate and ValidatePodUpdate (pkg/apis/core/validation) that clients meet
// most: containers, their names, images, ports, environment and mounts, volumes, policies, and what an update may
// change. What is left out is listed in docs (Pod validation is kube's largest).

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);
const text = str;
const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
// NotSupported lists them in kube's order, not sorted.
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const ENV_VAR_NAME = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** The volume sources of core/v1 VolumeSource: a volume names exactly one. */
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume',
  'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
];

function validateVolumes(volumes: Obj[], field: string): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((v, i) => {
    const at = `${field}[${i}]`;
    const name = text(v.name);
    if (!name) errs.push(fieldRequired(`${at}.name`));
    else {
      for (const msg of isDNS1123Label(name)) errs.push(fieldInvalid(`${at}.name`, name, msg));
      if (names.has(name)) errs.push(fieldDuplicate(`${at}.name`, name));
      names.add(name);
    }
    const sources = VOLUME_SOURCES.filter((s) => isSet(v[s]));
    if (sources.length === 0) errs.push(fieldRequired(at, 'must specify a volume type'));
    else for (const extra of sources.slice(1)) errs.push(fieldForbidden(`${at}.${extra}`, 'may not specify more than 1 volume type'));
  });
  return { errs, names };
}

function validatePorts(ports: Obj[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = `${field}[${i}]`;
    const name = text(p.name);
    if (name) {
      for (const msg of isPortName(name)) errs.push(fieldInvalid(`${at}.name`, name, msg));
      if (names.has(name)) errs.push(fieldDuplicate(`${at}.name`, name));
      names.add(name);
    }
    if (!p.containerPort) errs.push(fieldRequired(`${at}.containerPort`));
    else errs.push(...portNumberErrors(`${at}.containerPort`, p.containerPort));
    if (p.hostPort) errs.push(...portNumberErrors(`${at}.hostPort`, p.hostPort));
    const protocol = text(p.protocol);
    if (!protocol) errs.push(fieldRequired(`${at}.protocol`));
    else if (!PORT_PROTOCOLS.includes(protocol)) errs.push(fieldNotSupported(`${at}.protocol`, protocol, PORT_PROTOCOLS));
  });
  return errs;
}

function validateEnv(env: Obj[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  env.forEach((e, i) => {
    const at = `${field}[${i}].name`;
    const name = text(e.name);
    if (!name) errs.push(fieldRequired(at));
    else if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(name)) errs.push(fieldInvalid(at, name, ENV_VAR_NAME));
  });
  return errs;
}

/** kube's ValidateVolumeMounts: a named, declared volume at a path no other mount of the container uses. */
function validateMounts(mounts: Obj[], volumes: Set<string>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  mounts.forEach((m, i) => {
    const at = `${field}[${i}]`;
    const name = text(m.name);
    // As kube: a mount without a name is both unnamed and of no declared volume.
    if (!name) errs.push(fieldRequired(`${at}.name`));
    if (!volumes.has(name)) errs.push(fieldNotFound(`${at}.name`, name));
    const path = text(m.mountPath);
    if (!path) errs.push(fieldRequired(`${at}.mountPath`));
    if (paths.has(path)) errs.push(fieldInvalid(`${at}.mountPath`, path, 'must be unique'));
    paths.add(path);
  });
  return errs;
}

/** kube's validateContainerCommon: name, image, termination message policy, ports, env, mounts, pull policy. */
function validateContainer(c: Obj, at: string, volumes: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(c.name);
  if (!name) errs.push(fieldRequired(`${at}.name`));
  else for (const msg of isDNS1123Label(name)) errs.push(fieldInvalid(`${at}.name`, name, msg));
  // kube does not trim: an image of " " is a token some templates use.
  if (!text(c.image)) errs.push(fieldRequired(`${at}.image`));
  if (isSet(c.terminationMessagePolicy) && !TERMINATION_MESSAGE_POLICIES.includes(text(c.terminationMessagePolicy))) {
    errs.push(fieldNotSupported(`${at}.terminationMessagePolicy`, c.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }
  errs.push(...validatePorts(objects(c.ports), `${at}.ports`));
  errs.push(...validateEnv(objects(c.env), `${at}.env`));
  errs.push(...validateMounts(objects(c.volumeMounts), volumes, `${at}.volumeMounts`));
  if (isSet(c.imagePullPolicy) && !PULL_POLICIES.includes(text(c.imagePullPolicy))) {
    errs.push(fieldNotSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  }
  return errs;
}

/**
 * Regular containers, then init containers: names unique among the regular ones, and an init container may not
 * take one of theirs (kube reports the collision on the init container).
 */
function validateContainers(containers: Obj[], field: string, volumes: Set<string>, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const at = `${field}[${i}]`;
    errs.push(...validateContainer(c, at, volumes));
    const name = text(c.name);
    if (names.has(name)) errs.push(fieldDuplicate(`${at}.name`, name));
    else names.add(name);
  });
  return errs;
}

/** The pod spec checks of kube's ValidatePodSpec this server makes. */
export function validatePodSpec(spec: Obj, field = 'spec'): FieldError[] {
  const { errs, names: volumes } = validateVolumes(objects(spec.volumes), `${field}.volumes`);
  const containerNames = new Set<string>();
  const containers = objects(spec.containers);
  if (!containers.length) errs.push(fieldRequired(`${field}.containers`));
  errs.push(...validateContainers(containers, `${field}.containers`, volumes, containerNames));
  errs.push(...validateContainers(objects(spec.initContainers), `${field}.initContainers`, volumes, containerNames));
  if (isSet(spec.restartPolicy) && !RESTART_POLICIES.includes(text(spec.restartPolicy))) {
    errs.push(fieldNotSupported(`${field}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES));
  }
  if (isSet(spec.dnsPolicy) && !DNS_POLICIES.includes(text(spec.dnsPolicy))) errs.push(fieldNotSupported(`${field}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES));
  return errs;
}

/** kube's ValidatePodCreate (the checks above); ephemeral containers come through their subresource only. */
export function validatePodCreate(pod: KubeObject): FieldError[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const errs = validatePodSpec(spec);
  if (objects(spec.ephemeralContainers).length) errs.push(fieldForbidden('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
  '`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/**
 * kube's ValidatePodUpdate: a pod's spec is fixed once created but for its containers' images, a shorter (or first)
 * active deadline, added tolerations, a grace period of 1 for one that was negative, and scheduling gates removed.
 */
export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const before = isObj(old.spec) ? old.spec : {};
  const errs = validatePodSpec(spec);
  // The spec as it would be with only what may change taken from the old one.
  const mutable = structuredClone(spec);
  for (const key of ['containers', 'initContainers'] as const) {
    const now = objects(mutable[key]);
    const was = objects(before[key]);
    if (now.length === was.length) now.forEach((c, i) => (c.image = was[i].image));
  }
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = before.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (oldDeadline === undefined || oldDeadline === null || (typeof oldDeadline === 'number' && deadline <= oldDeadline))) {
    mutable.activeDeadlineSeconds = oldDeadline;
  }
  const tolerations = objects(spec.tolerations);
  const oldTolerations = objects(before.tolerations);
  if (oldTolerations.every((t) => tolerations.some((n) => isDeepStrictEqual(n, t)))) mutable.tolerations = before.tolerations;
  if (typeof before.terminationGracePeriodSeconds === 'number' && before.terminationGracePeriodSeconds < 0 && spec.terminationGracePeriodSeconds === 1) {
    mutable.terminationGracePeriodSeconds = before.terminationGracePeriodSeconds;
  }
  const gates = objects(spec.schedulingGates);
  const oldGates = objects(before.schedulingGates);
  if (gates.every((g) => oldGates.some((o) => isDeepStrictEqual(o, g)))) mutable.schedulingGates = before.schedulingGates;
  if (!isDeepStrictEqual(strip(mutable), strip(before))) errs.push(fieldForbidden('spec', POD_UPDATE_FORBIDDEN));
  return errs;
}

/** A spec without its undefined members, so that a key set to undefined equals a missing one. */
const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? {}));
