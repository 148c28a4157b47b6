import {
  asObjects,
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  GoValue,
  goStringMap,
  isDNS1123Label,
  isObj,
  isPortName,
  str,
  validateAnnotations,
  validateLabels,
  type FieldError,
  type KubeObject,
  type Obj,
} from '@kapi/apimachinery';
import { annotationFieldMatchErrors, podAnnotationErrors } from './pod-annotations.js';
import { ephemeralContainerErrors, ephemeralContainersUpdateErrors } from './pod-ephemeral.js';
import { imageWhitespaceErrors } from './pod-containers.js';
import { podResizeErrors } from './pod-resize.js';
import { podUpdateErrors } from './pod-update.js';
import { validateEnv, validateEnvFrom } from './pod-env.js';
import { forbiddenForInitContainer, validateProbesAndLifecycle } from './pod-handlers.js';
import { validateContainerResources } from './pod-resources.js';
import { containerSecurityContextErrors } from './pod-security.js';
import { podSpecFieldErrors } from './pod-spec-fields.js';
import { validateVolumes, volumeDeviceErrors, volumeMountErrors } from './pod-volumes.js';
import { PORT_PROTOCOLS, portNumberErrors } from './ports.js';

// The parts of kube 1.33's ValidatePodCreate and ValidatePodUpdate (pkg/apis/core/validation) that clients meet
// most: volumes, containers (with pod-env.ts, pod-handlers.ts and pod-resources.ts), the spec's other fields
// (pod-spec-fields.ts), and what an update may change. What is left out is listed in docs/building-a-server.md
// (Pod validation is kube's largest).

const text = str;
const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
// NotSupported lists them in kube's order, not sorted.
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

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

/** kube's validateContainerCommon: name, image, termination message policy, ports, env, mounts and devices, pull policy, resources, security context. */
const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];

/** kube's validateResizePolicy (its errors, but a repeated resource's, on the list's path, as kube reports them). */
function resizePolicyErrors(policies: unknown, field: string, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  asObjects(policies).forEach((p, i) => {
    const resource = text(p.resourceName);
    const policy = text(p.restartPolicy);
    if (seen.has(resource)) errs.push(fieldDuplicate(`${field}[${i}]`, resource));
    seen.add(resource);
    if (!resource) errs.push(fieldRequired(field));
    else if (!RESIZE_RESOURCES.includes(resource)) errs.push(fieldNotSupported(field, resource, RESIZE_RESOURCES));
    if (!policy) errs.push(fieldRequired(field));
    else if (!RESIZE_POLICIES.includes(policy)) errs.push(fieldNotSupported(field, policy, RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired') errs.push(fieldInvalid(field, policy, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

/** What every container of a spec is checked against: the pod's volumes (name → source), user namespaces and restart policy. */
interface PodContext {
  volumes: Map<string, string>;
  hostUsers: boolean;
  restartPolicy: string;
  gracePeriod: unknown;
}

function validateContainer(c: Obj, at: string, pod: PodContext): FieldError[] {
  const { volumes, hostUsers } = pod;
  const errs: FieldError[] = [];
  const name = text(c.name);
  if (!name) errs.push(fieldRequired(`${at}.name`));
  else for (const msg of isDNS1123Label(name)) errs.push(fieldInvalid(`${at}.name`, name, msg));
  // kube does not trim: an image of " " is a token some templates use.
  if (!text(c.image)) errs.push(fieldRequired(`${at}.image`));
  if (isSet(c.terminationMessagePolicy) && !TERMINATION_MESSAGE_POLICIES.includes(text(c.terminationMessagePolicy))) {
    errs.push(fieldNotSupported(`${at}.terminationMessagePolicy`, c.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }
  errs.push(...validatePorts(asObjects(c.ports), `${at}.ports`));
  errs.push(...validateEnv(c.env, `${at}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${at}.envFrom`));
  errs.push(...volumeMountErrors(c, volumes, `${at}.volumeMounts`));
  errs.push(...volumeDeviceErrors(c, volumes, `${at}.volumeDevices`));
  if (isSet(c.imagePullPolicy) && !PULL_POLICIES.includes(text(c.imagePullPolicy))) {
    errs.push(fieldNotSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  }
  errs.push(...validateContainerResources(c.resources, `${at}.resources`));
  errs.push(...resizePolicyErrors(c.resizePolicy, `${at}.resizePolicy`, pod.restartPolicy));
  errs.push(...containerSecurityContextErrors(c.securityContext, `${at}.securityContext`, hostUsers));
  return errs;
}

/** A container's common checks, then a name not among `names` (which it joins). */
function validateNamedContainer(c: Obj, at: string, pod: PodContext, names: Set<string>): FieldError[] {
  const errs = validateContainer(c, at, pod);
  const name = text(c.name);
  if (names.has(name)) errs.push(fieldDuplicate(`${at}.name`, name));
  else names.add(name);
  return errs;
}

/** kube's AccumulateUniqueHostPorts: a host port (with its protocol and host IP) used once among `containers`. */
function hostPortConflicts(containers: Obj[], field: string, seen = new Set<string>()): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    asObjects(c.ports).forEach((p, pi) => {
      if (!p.hostPort) return;
      const key = `${text(p.protocol)}/${text(p.hostIP)}/${String(p.hostPort)}`;
      if (seen.has(key)) errs.push(fieldDuplicate(`${field}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

/**
 * kube's validateContainers: each container's common checks, a name unique among them, its lifecycle and probes,
 * no restart policy of its own; then host ports that do not collide across the containers.
 */
function validateContainers(containers: Obj[], field: string, pod: PodContext): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const at = `${field}[${i}]`;
    errs.push(...validateNamedContainer(c, at, pod, names));
    errs.push(...validateProbesAndLifecycle(c, at, pod.gracePeriod));
    if (isSet(c.restartPolicy)) errs.push(fieldForbidden(`${at}.restartPolicy`, 'may not be set for non-init containers'));
  });
  errs.push(...hostPortConflicts(containers, field));
  return errs;
}

/**
 * kube's validateInitContainers: the common checks, a restart policy that can only be Always (a sidecar), a name no
 * other container has (reported on the init container), host ports checked per container (they run one by one),
 * and lifecycle and probes for sidecars only.
 */
function validateInitContainers(containers: Obj[], regular: Obj[], field: string, pod: PodContext): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => text(c.name)));
  containers.forEach((c, i) => {
    const at = `${field}[${i}]`;
    errs.push(...validateContainer(c, at, pod));
    if (isSet(c.restartPolicy) && c.restartPolicy !== 'Always') errs.push(fieldNotSupported(`${at}.restartPolicy`, c.restartPolicy, ['Always']));
    const name = text(c.name);
    if (names.has(name)) errs.push(fieldDuplicate(`${at}.name`, name));
    else if (name) names.add(name);
    errs.push(...hostPortConflicts([c], field));
    errs.push(...(c.restartPolicy === 'Always' ? validateProbesAndLifecycle(c, at, pod.gracePeriod) : forbiddenForInitContainer(c, at)));
  });
  return errs;
}

/**
 * kube's validateEphemeralContainers: each one's common container checks, a name no other container of the pod has,
 * and what only ephemeral containers are checked for (pod-ephemeral.ts).
 */
function validateEphemeralContainers(containers: Obj[], regular: Obj[], inits: Obj[], field: string, pod: PodContext): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...regular, ...inits].map((c) => text(c.name)));
  const names = new Set(others);
  containers.forEach((c, i) => {
    const at = `${field}[${i}]`;
    errs.push(...validateNamedContainer(c, at, pod, names));
    errs.push(...ephemeralContainerErrors(c, at, others));
    errs.push(...imageWhitespaceErrors(c, at));
  });
  return errs;
}

/** The pod spec checks of kube's ValidatePodSpec this server makes. */
export function validatePodSpec(spec: Obj, field = 'spec', options: { isPod?: boolean; podName?: string } = {}): FieldError[] {
  const { errs, sources: volumes } = validateVolumes(asObjects(spec.volumes), `${field}.volumes`, options.podName);
  const containers = asObjects(spec.containers);
  const grace = spec.terminationGracePeriodSeconds;
  // User namespaces are off unless the pod asks for them (hostUsers defaults to true).
  const pod: PodContext = { volumes, hostUsers: spec.hostUsers !== false, restartPolicy: str(spec.restartPolicy) || 'Always', gracePeriod: grace };
  if (!containers.length) errs.push(fieldRequired(`${field}.containers`));
  else errs.push(...validateContainers(containers, `${field}.containers`, pod));
  errs.push(...validateInitContainers(asObjects(spec.initContainers), containers, `${field}.initContainers`, pod));
  errs.push(...validateEphemeralContainers(asObjects(spec.ephemeralContainers), containers, asObjects(spec.initContainers), `${field}.ephemeralContainers`, pod));
  errs.push(...podSpecFieldErrors(spec, field, options.isPod === true));
  return errs;
}

/**
 * What kube's validatePodMetadataAndSpec checks of a pod but not of a pod template: no projected service account
 * token without a service account, and container images without padding (ephemeral containers get that check
 * with their own).
 */
function podOnlyErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!text(spec.serviceAccountName)) {
    asObjects(spec.volumes).forEach((v, vi) => {
      if (!isObj(v.projected)) return;
      asObjects(v.projected.sources).forEach((source, si) => {
        if (isSet(source.serviceAccountToken)) errs.push(fieldForbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
      });
    });
  }
  for (const key of ['containers', 'initContainers']) asObjects(spec[key]).forEach((c, i) => errs.push(...imageWhitespaceErrors(c, `spec.${key}[${i}]`)));
  return errs;
}

/** kube's ValidatePodCreate (the checks above); ephemeral containers come through their subresource only. */
export function validatePodCreate(pod: KubeObject): FieldError[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const errs = podAnnotationErrors(pod.metadata?.annotations, spec, 'metadata.annotations');
  errs.push(...validatePodSpec(spec, 'spec', { isPod: true, podName: pod.metadata?.name }), ...podOnlyErrors(spec));
  if (asObjects(spec.ephemeralContainers).length) errs.push(fieldForbidden('spec.ephemeralContainers', 'cannot be set on create'));
  // A pod is not bound to a node while it still waits on scheduling gates.
  if (text(spec.nodeName) && asObjects(spec.schedulingGates).length) errs.push(fieldForbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  errs.push(...annotationFieldMatchErrors(pod.metadata?.annotations, spec, 'spec'));
  return errs;
}

/**
 * kube's ValidatePodTemplateSpec, for every kind that holds a pod template (Deployments, Jobs, PodTemplates...):
 * its labels and annotations (reported, as kube does, at `<field>.labels` and `<field>.annotations`, without
 * `metadata`), the pod spec's checks above at `<field>.spec`, and no ephemeral containers.
 */
export function validatePodTemplateSpec(template: unknown, field: string): FieldError[] {
  const spec = isObj(template) && isObj(template.spec) ? template.spec : {};
  const errs = validatePodTemplateMetadata(template, field);
  errs.push(...validatePodSpec(spec, `${field}.spec`));
  errs.push(...annotationFieldMatchErrors(isObj(template) && isObj(template.metadata) ? template.metadata.annotations : undefined, spec, `${field}.spec`));
  if (asObjects(spec.ephemeralContainers).length) errs.push(fieldForbidden(`${field}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return errs;
}

/**
 * kube's error for a controller whose selector does not select its pod template's labels (`labels` as Go prints
 * them: `map[string]string{"app":"web"}`, `map[string]string(nil)` when the template has none).
 */
export const selectorMismatch = (field: string, labels: unknown): FieldError =>
  fieldInvalid(field, new GoValue(goStringMap(isObj(labels) ? labels : undefined)), '`selector` does not match template `labels`');

/** A pod template's labels and annotations (the pod-specific ones too), reported at `<field>.labels` and `<field>.annotations` as kube does. */
function validatePodTemplateMetadata(template: unknown, field: string): FieldError[] {
  const meta = isObj(template) && isObj(template.metadata) ? template.metadata : {};
  const spec = isObj(template) && isObj(template.spec) ? template.spec : {};
  return [
    ...validateLabels(meta.labels, `${field}.labels`),
    ...validateAnnotations(meta.annotations, `${field}.annotations`),
    ...podAnnotationErrors(meta.annotations, spec, `${field}.annotations`),
  ];
}

/**
 * The template of a controller that keeps its pods running (kube's ValidatePodTemplateSpecForReplicaSet, ...ForRC,
 * and the DaemonSet and StatefulSet specs): a valid pod template whose pods restart Always and have no active
 * deadline. `owner` names the controller in the deadline's message (`ReplicaSet` for Deployments too, as kube).
 * With `podSpec: false` (StatefulSets) the pod spec itself is not checked, as kube does not.
 */
export function validateRunningPodTemplate(template: unknown, field: string, owner: string, options: { podSpec?: boolean } = {}): FieldError[] {
  // kube's StatefulSets check only the template's labels and annotations (podSpec: false): their pods' volume mounts
  // may name volume claim templates, which ValidatePodSpec would not find.
  const errs = options.podSpec === false ? validatePodTemplateMetadata(template, field) : validatePodTemplateSpec(template, field);
  const spec = isObj(template) && isObj(template.spec) ? template.spec : {};
  // Defaulting sets the policy; only a writer that skips it (code storing objects directly) leaves it out.
  if (spec.restartPolicy !== undefined && spec.restartPolicy !== 'Always') errs.push(fieldNotSupported(`${field}.spec.restartPolicy`, spec.restartPolicy, ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(fieldForbidden(`${field}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${owner} is not Supported`));
  }
  return errs;
}

/** kube's ValidatePodUpdate: the pod as for any update, then what an update may change (pod-update.ts). */
export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  return podUpdateErrors(pod, old, updatedPodErrors(pod, old));
}

/** kube's validatePodMetadataAndSpec with the pod-specific annotations' update rules, for any update of a pod. */
function updatedPodErrors(pod: KubeObject, old: KubeObject): FieldError[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const before = isObj(old.spec) ? old.spec : {};
  // A deletion cost that was already invalid may stay (kube's AllowInvalidPodDeletionCost).
  const oldCost = podAnnotationErrors(old.metadata?.annotations, before, 'metadata.annotations').some((e) => e.field.endsWith('[controller.kubernetes.io/pod-deletion-cost]'));
  const errs = podAnnotationErrors(pod.metadata?.annotations, spec, 'metadata.annotations', { allowInvalidDeletionCost: oldCost });
  errs.push(...validatePodSpec(spec, 'spec', { isPod: true, podName: pod.metadata?.name }), ...podOnlyErrors(spec));
  return errs;
}

/** kube's ValidatePodEphemeralContainersUpdate: the pod as for any update, then what may change of its ephemeral containers. */
export function validatePodEphemeralContainersUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  return ephemeralContainersUpdateErrors(pod, old, updatedPodErrors(pod, old));
}

/** kube's ValidatePodResize: the pod as for any update, then what a resize may change (pod-resize.ts). */
export function validatePodResize(pod: KubeObject, old: KubeObject): FieldError[] {
  return podResizeErrors(pod, old, updatedPodErrors(pod, old));
}
