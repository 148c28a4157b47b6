// kube's HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation/validation.go, release 1.33, default
// feature gates: HPAScaleToZero and HPAConfigurableTolerance off), on the v2 form of the object (kube validates its
// internal, v2-shaped type, so the field paths are v2's whatever version the request spoke).
import {
  asObj,
  fieldChild as child,
  fieldForbidden as forbidden,
  fieldInvalid as invalid,
  fieldNotSupported as notSupported,
  fieldRequired as required,
  GoValue,
  isDNS1123Label,
  isDNS1123Subdomain,
  goQuantityRepr,
  isObj,
  parseQuantity,
  type FieldError,
  type KubeObject,
  type Obj,
} from '@kapi/apimachinery';
import { isValidPathSegmentName } from '@kapi/apiserver';

/** The largest allowed scaling policy period (seconds): MaxPeriodSeconds. */
export const MAX_PERIOD_SECONDS = 1800;
/** The largest allowed stabilization window (seconds): MaxStabilizationWindowSeconds. */
export const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

const has = (o: Obj, key: string) => o[key] !== undefined && o[key] !== null;
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);


/** Quantity.Sign(); 0 for what is no quantity (the schema refuses those before). */
function quantitySign(v: unknown): number {
  try {
    const { value } = parseQuantity(typeof v === 'number' ? String(v) : text(v));
    return value.n === 0n ? 0 : value.n > 0n ? 1 : -1;
  } catch {
    return 0;
  }
}

/**
 * field.Invalid on a *Quantity. The bad value goes in the detail, already formatted as Go prints it, so that the
 * body reads `Invalid value: resource.Quantity{...}: must be positive` exactly as kube's.
 */
const invalidQuantity = (field: string, q: unknown, message: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  message: `${goQuantityRepr(typeof q === 'number' ? q : text(q))}: ${message}`,
});

// ---- spec ----

/** ValidateCrossVersionObjectReference */
export function validateCrossVersionObjectReference(ref: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = text(asObj(ref)[key]);
    if (value.length === 0) errs.push(required(child(path, key)));
    else for (const msg of isValidPathSegmentName(value)) errs.push(invalid(child(path, key), value, msg));
  }
  return errs;
}

/** validateMetricIdentifier */
export function validateMetricIdentifier(id: unknown, path: string): FieldError[] {
  const name = text(asObj(id).name);
  if (name.length === 0) return [required(child(path, 'name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => invalid(child(path, 'name'), name, msg));
}

/** validateMetricTarget */
export function validateMetricTarget(target: unknown, path: string): FieldError[] {
  const mt = asObj(target);
  const errs: FieldError[] = [];
  const type = text(mt.type);
  if (type.length === 0) errs.push(required(child(path, 'type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(invalid(child(path, 'type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  if (has(mt, 'value') && quantitySign(mt.value) !== 1) errs.push(invalidQuantity(child(path, 'value'), mt.value, 'must be positive'));
  if (has(mt, 'averageValue') && quantitySign(mt.averageValue) !== 1) {
    errs.push(invalidQuantity(child(path, 'averageValue'), mt.averageValue, 'must be positive'));
  }
  if (has(mt, 'averageUtilization') && num(mt.averageUtilization) < 1) {
    errs.push(invalid(child(path, 'averageUtilization'), mt.averageUtilization, 'must be greater than 0'));
  }
  return errs;
}

function validateObjectSource(src: Obj, path: string): FieldError[] {
  const target = asObj(src.target);
  const errs = [
    ...validateCrossVersionObjectReference(src.describedObject, child(path, 'describedObject')),
    ...validateMetricIdentifier(src.metric, child(path, 'metric')),
    ...validateMetricTarget(src.target, child(path, 'target')),
  ];
  if (!has(target, 'value') && !has(target, 'averageValue')) {
    errs.push(required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
  }
  return errs;
}

function validateExternalSource(src: Obj, path: string): FieldError[] {
  const target = asObj(src.target);
  const errs = [...validateMetricIdentifier(src.metric, child(path, 'metric')), ...validateMetricTarget(src.target, child(path, 'target'))];
  if (!has(target, 'value') && !has(target, 'averageValue')) {
    errs.push(required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
  }
  if (has(target, 'value') && has(target, 'averageValue')) {
    errs.push(forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
  }
  return errs;
}

function validatePodsSource(src: Obj, path: string): FieldError[] {
  const errs = [...validateMetricIdentifier(src.metric, child(path, 'metric')), ...validateMetricTarget(src.target, child(path, 'target'))];
  if (!has(asObj(src.target), 'averageValue')) errs.push(required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
  return errs;
}

/** The utilization-or-raw-value rule Resource and ContainerResource metrics share. */
function utilizationOrValue(target: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!has(target, 'averageUtilization') && !has(target, 'averageValue')) {
    errs.push(required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (has(target, 'averageUtilization') && has(target, 'averageValue')) {
    errs.push(forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateResourceSource(src: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (text(src.name).length === 0) errs.push(required(child(path, 'name'), 'must specify a resource name'));
  errs.push(...validateMetricTarget(src.target, child(path, 'target')));
  errs.push(...utilizationOrValue(asObj(src.target), path));
  return errs;
}

// core's resource name helpers (pkg/apis/core/helper), as ValidateContainerResourceName uses them
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const isHugePage = (name: string) => name.startsWith('hugepages-');
const isStandardResourceName = (name: string) => STANDARD_RESOURCES.has(name) || isHugePage(name) || name.startsWith('requests.hugepages-');
const isStandardContainerResourceName = (name: string) => STANDARD_CONTAINER_RESOURCES.has(name) || isHugePage(name);
const isNativeResource = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNamePart = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const qualifiedRegexError = `${QUALIFIED_NAME_ERR} (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_FMT}')`;

/** validation.IsQualifiedName */
export function isQualifiedName(value: string): string[] {
  const parts = value.split('/');
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${qualifiedRegexError} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (Buffer.byteLength(name, 'utf8') > 63) errs.push('name part must be no more than 63 characters');
  if (!qualifiedNamePart.test(name)) errs.push(`name part ${qualifiedRegexError}`);
  return errs;
}

const isExtendedResourceName = (name: string) => !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/**
 * corevalidation.ValidateContainerResourceName (core/v1/validation), after ValidateResourceName. Its own errors carry
 * the name as a core.ResourceName, a fmt.Stringer, which kube prints unquoted (`Invalid value: pods: ...`); those
 * of ValidateQualifiedName carry a string, quoted.
 */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const resourceName = new GoValue(name);
  let errs = isQualifiedName(name).map((msg) => invalid(path, name, msg));
  if (errs.length === 0 && !name.includes('/') && !isStandardResourceName(name)) {
    errs = [invalid(path, resourceName, 'must be a standard resource type or fully qualified')];
  }
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) errs.push(invalid(path, resourceName, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, resourceName, "doesn't follow extended resource name standard"));
  }
  return errs;
}

function validateContainerResourceSource(src: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(src.name);
  if (name.length === 0) errs.push(required(child(path, 'name'), 'must specify a resource name'));
  else errs.push(...validateContainerResourceName(name, child(path, 'name')));
  const container = text(src.container);
  if (container.length === 0) errs.push(required(child(path, 'container'), 'must specify a container'));
  else errs.push(...isDNS1123Label(container).map((msg) => invalid(child(path, 'container'), container, msg)));
  errs.push(...validateMetricTarget(src.target, child(path, 'target')));
  errs.push(...utilizationOrValue(asObj(src.target), path));
  return errs;
}

const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
// the order validateMetricSpec looks at the sources, with the field each type expects
const SOURCES: [field: string, type: string, validate: (src: Obj, path: string) => FieldError[]][] = [
  ['object', 'Object', validateObjectSource],
  ['external', 'External', validateExternalSource],
  ['pods', 'Pods', validatePodsSource],
  ['resource', 'Resource', validateResourceSource],
  ['containerResource', 'ContainerResource', validateContainerResourceSource],
];

/** validateMetricSpec */
export function validateMetricSpec(metric: unknown, path: string): FieldError[] {
  const spec = asObj(metric);
  const errs: FieldError[] = [];
  const type = text(spec.type);
  if (type.length === 0) errs.push(required(child(path, 'type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));

  // only the first source present is validated
  const present: string[] = [];
  for (const [field, , validate] of SOURCES) {
    if (!has(spec, field)) continue;
    present.push(field);
    if (present.length === 1) errs.push(...validate(asObj(spec[field]), child(path, field)));
  }

  const expected = SOURCES.find(([, t]) => t === type);
  if (expected) {
    if (!has(spec, expected[0])) errs.push(required(child(path, expected[0]), 'must populate information for the given metric source'));
  } else {
    errs.push(notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  }

  // Go ranges over a set (a map) here: its order is random; a fixed one (the order of the sources above) here.
  if (present.length !== 1) {
    for (const field of present) if (field !== expected?.[0]) errs.push(forbidden(child(path, field), 'must populate the given metric source only'));
  }
  return errs;
}

/** validateMetrics */
export function validateMetrics(metrics: unknown, path: string, minReplicas: number | undefined): FieldError[] {
  const list = Array.isArray(metrics) ? metrics : [];
  const errs = list.flatMap((m, i) => validateMetricSpec(m, `${path}[${i}]`));
  const types = list.map((m) => text(asObj(m).type));
  if (minReplicas === 0 && !types.includes('Object') && !types.includes('External')) {
    errs.push(forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];

/** validateScalingPolicy */
export function validateScalingPolicy(policy: unknown, path: string): FieldError[] {
  const p = asObj(policy);
  const errs: FieldError[] = [];
  const type = text(p.type);
  if (type !== 'Pods' && type !== 'Percent') errs.push(notSupported(child(path, 'type'), type, POLICY_TYPES));
  const value = num(p.value);
  if (value <= 0) errs.push(invalid(child(path, 'value'), value, 'must be greater than zero'));
  const period = num(p.periodSeconds);
  if (period <= 0) errs.push(invalid(child(path, 'periodSeconds'), period, 'must be greater than zero'));
  if (period > MAX_PERIOD_SECONDS) errs.push(invalid(child(path, 'periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return errs;
}

/** validateScalingRules (tolerance is not validated: with HPAConfigurableTolerance off kube drops it before). */
export function validateScalingRules(scalingRules: unknown, path: string): FieldError[] {
  if (!isObj(scalingRules)) return [];
  const rules = scalingRules;
  const errs: FieldError[] = [];
  if (has(rules, 'stabilizationWindowSeconds')) {
    const window = num(rules.stabilizationWindowSeconds);
    const field = child(path, 'stabilizationWindowSeconds');
    if (window < 0) errs.push(invalid(field, window, 'must be greater than or equal to zero'));
    if (window > MAX_STABILIZATION_WINDOW_SECONDS) errs.push(invalid(field, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (has(rules, 'selectPolicy') && !SELECT_POLICIES.includes(text(rules.selectPolicy))) {
    errs.push(notSupported(child(path, 'selectPolicy'), text(rules.selectPolicy), SELECT_POLICIES));
  }
  const policiesPath = child(path, 'policies');
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) errs.push(required(policiesPath, 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...validateScalingPolicy(p, `${policiesPath}[${i}]`)));
  return errs;
}

/** validateBehavior */
export function validateBehavior(behavior: unknown, path: string): FieldError[] {
  if (!isObj(behavior)) return [];
  return [...validateScalingRules(behavior.scaleUp, child(path, 'scaleUp')), ...validateScalingRules(behavior.scaleDown, child(path, 'scaleDown'))];
}

/** validateHorizontalPodAutoscalerSpec, minReplicas at least `minReplicasLowerBound`. */
export function validateHorizontalPodAutoscalerSpec(hpaSpec: unknown, path: string, minReplicasLowerBound: number): FieldError[] {
  const spec = asObj(hpaSpec);
  const errs: FieldError[] = [];
  const minReplicas = has(spec, 'minReplicas') ? num(spec.minReplicas) : undefined;
  const maxReplicas = num(spec.maxReplicas);
  if (minReplicas !== undefined && minReplicas < minReplicasLowerBound) {
    errs.push(invalid(child(path, 'minReplicas'), minReplicas, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (maxReplicas < 1) errs.push(invalid(child(path, 'maxReplicas'), maxReplicas, 'must be greater than 0'));
  if (minReplicas !== undefined && maxReplicas < minReplicas) {
    errs.push(invalid(child(path, 'maxReplicas'), maxReplicas, 'must be greater than or equal to `minReplicas`'));
  }
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, child(path, 'scaleTargetRef')));
  errs.push(...validateMetrics(spec.metrics, child(path, 'metrics'), minReplicas));
  errs.push(...validateBehavior(spec.behavior, child(path, 'behavior')));
  return errs;
}

/** ValidateHorizontalPodAutoscaler (without the metadata, the Store's): minReplicas at least 1 (HPAScaleToZero off). */
export function validateHorizontalPodAutoscaler(hpa: KubeObject): FieldError[] {
  return validateHorizontalPodAutoscalerSpec(hpa.spec, 'spec', 1);
}

/** ValidateHorizontalPodAutoscalerUpdate (without the metadata): minReplicas 0 stays allowed where it already was. */
export function validateHorizontalPodAutoscalerUpdate(hpa: KubeObject, old: KubeObject): FieldError[] {
  const oldMin = asObj(old.spec).minReplicas;
  return validateHorizontalPodAutoscalerSpec(hpa.spec, 'spec', oldMin === 0 ? 0 : 1);
}

/** ValidateHorizontalPodAutoscalerStatusUpdate (without the metadata): ValidateNonnegativeField of both counts. */
export function validateHorizontalPodAutoscalerStatusUpdate(hpa: KubeObject): FieldError[] {
  const status = asObj(hpa.status);
  const errs: FieldError[] = [];
  for (const key of ['currentReplicas', 'desiredReplicas']) {
    const value = num(status[key]);
    if (value < 0) errs.push(invalid(`status.${key}`, value, 'must be greater than or equal to 0'));
  }
  return errs;
}
