import { asObjects, fieldInvalid, fieldNotSupported, fieldRequired, isDNS1123Subdomain, isObj, maskTrailingDash, str, validateLabelName, type FieldError, type Obj } from '@kapi/apimachinery';
import { isConfigMapKey } from './config-data.js';
import { fileModeErrors, localNonReservedPathErrors } from './pod-paths.js';
import { compareQuantities } from './quantity.js';

// A container's environment as kube 1.33 validates it (ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom):
// names, one source per value and each source's own fields, one reference per envFrom entry and its name; and the
// downward API's selectors, which volumes' downwardAPI files share.

/** What a fieldRef may name in an environment variable, and in a downward API volume file (kube's sets, sorted). */
const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
/** The labels kube's ConvertDownwardAPIFieldLabel knows for v1 pods. */
const POD_FIELD_LABELS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.restartPolicy',
  'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
]);
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGEPAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];
const MEMORY_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const MEMORY_DIVISORS_TEXT = MEMORY_DIVISORS.join(', ');

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` → [`metadata.labels`, `app`]. */
function splitSubscript(path: string): [string, string] | undefined {
  if (!path.endsWith("']")) return undefined;
  const at = path.indexOf("['");
  return at > 0 ? [path.slice(0, at), path.slice(at + 2, -2)] : undefined;
}

/** kube's validateObjectFieldSelector (with ConvertDownwardAPIFieldLabel's errors). */
function fieldSelectorErrors(fs: Obj, paths: string[], field: string): FieldError[] {
  const version = str(fs.apiVersion);
  const path = str(fs.fieldPath);
  if (!version) return [fieldRequired(`${field}.apiVersion`)];
  if (!path) return [fieldRequired(`${field}.fieldPath`)];
  const sub = splitSubscript(path);
  let problem: string | undefined;
  if (version !== 'v1') problem = `unsupported pod version: ${version}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') problem = `field label does not support subscript: ${path}`;
  else if (!sub && !POD_FIELD_LABELS.has(path) && path !== 'spec.host') problem = `field label not supported: ${path}`;
  if (problem) return [fieldInvalid(`${field}.fieldPath`, path, `error converting fieldPath: ${problem}`)];
  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return validateLabelName(key, field);
  }
  const internal = path === 'spec.host' ? 'spec.nodeName' : path;
  return paths.includes(internal) ? [] : [fieldNotSupported(`${field}.fieldPath`, internal, paths)];
}

/** kube's validateContainerResourceFieldSelector and validateContainerResourceDivisor. */
function resourceSelectorErrors(fs: Obj, field: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && !str(fs.containerName)) errs.push(fieldRequired(`${field}.containerName`));
  else if (!resource) errs.push(fieldRequired(`${field}.resource`));
  else if (!RESOURCE_FIELD_PATHS.includes(resource) && !HUGEPAGES_PREFIXES.some((p) => resource.startsWith(p))) {
    errs.push(fieldNotSupported(`${field}.resource`, resource, RESOURCE_FIELD_PATHS));
  }
  const divisor = fs.divisor;
  if (divisor === undefined || divisor === null || compareQuantities(divisor, '0') === 0) return errs;
  const is = (list: string[]) => list.some((d) => compareQuantities(divisor, d) === 0);
  const bad = (what: string) => errs.push(fieldInvalid(`${field}.divisor`, resource, what));
  if (resource.endsWith('.cpu')) {
    if (!is(['1m', '1'])) bad("only divisor's values 1m and 1 are supported with the cpu resource");
  } else if (resource.endsWith('.memory')) {
    if (!is(MEMORY_DIVISORS)) bad(`only divisor's values ${MEMORY_DIVISORS_TEXT} are supported with the memory resource`);
  } else if (resource.endsWith('.ephemeral-storage')) {
    if (!is(MEMORY_DIVISORS)) bad(`only divisor's values ${MEMORY_DIVISORS_TEXT} are supported with the local ephemeral storage resource`);
  }
  if (HUGEPAGES_PREFIXES.some((p) => resource.startsWith(p)) && !is(MEMORY_DIVISORS)) {
    bad(`only divisor's values ${MEMORY_DIVISORS_TEXT} are supported with the hugepages resource`);
  }
  return errs;
}

/** kube's validateConfigMapKeySelector and validateSecretKeySelector: a valid name, and a key. */
function keySelectorErrors(s: Obj, field: string): FieldError[] {
  const name = str(s.name);
  const errs = isDNS1123Subdomain(name).map((msg) => fieldInvalid(`${field}.name`, name, msg));
  const key = str(s.key);
  if (!key) errs.push(fieldRequired(`${field}.key`));
  else errs.push(...isConfigMapKey(key).map((msg) => fieldInvalid(`${field}.key`, key, msg)));
  return errs;
}

/** kube's validateDownwardAPIVolumeFile (a downwardAPI volume's or projection's item, reported on `field`). */
export function downwardAPIFileErrors(file: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const path = str(file.path);
  if (!path) errs.push(fieldRequired(`${field}.path`));
  errs.push(...localNonReservedPathErrors(path, `${field}.path`));
  if (isObj(file.fieldRef)) {
    errs.push(...fieldSelectorErrors(file.fieldRef, VOLUME_FIELD_PATHS, `${field}.fieldRef`));
    if (isObj(file.resourceFieldRef)) errs.push(fieldInvalid(field, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isObj(file.resourceFieldRef)) {
    errs.push(...resourceSelectorErrors(file.resourceFieldRef, `${field}.resourceFieldRef`, true));
  } else {
    errs.push(fieldRequired(field, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...fileModeErrors(file.mode, `${field}.mode`));
  return errs;
}

const ENV_VAR_NAME = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const isEnvVarName = (name: string) => /^[\x20-\x3c\x3e-\x7e]+$/.test(name);
const isSet = (v: unknown) => v !== undefined && v !== null;

const VALUE_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];

/** kube's validateEnvVarValueFrom: each source's fields, exactly one source, and no `value` beside it. */
function valueFromErrors(e: Obj, field: string): FieldError[] {
  const from = e.valueFrom;
  if (!isObj(from)) return [];
  const errs: FieldError[] = [];
  if (isObj(from.fieldRef)) errs.push(...fieldSelectorErrors(from.fieldRef, ENV_FIELD_PATHS, `${field}.fieldRef`));
  if (isObj(from.resourceFieldRef)) errs.push(...resourceSelectorErrors(from.resourceFieldRef, `${field}.resourceFieldRef`, false));
  if (isObj(from.configMapKeyRef)) errs.push(...keySelectorErrors(from.configMapKeyRef, `${field}.configMapKeyRef`));
  if (isObj(from.secretKeyRef)) errs.push(...keySelectorErrors(from.secretKeyRef, `${field}.secretKeyRef`));
  const sources = VALUE_SOURCES.filter((s) => isSet(from[s])).length;
  if (sources === 0) errs.push(fieldInvalid(field, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(e.value) !== '') errs.push(fieldInvalid(field, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(fieldInvalid(field, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** kube's ValidateEnv: every variable named, its value from at most one source. */
export function validateEnv(env: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(env).forEach((e, i) => {
    const at = `${field}[${i}]`;
    const name = str(e.name);
    if (!name) errs.push(fieldRequired(`${at}.name`));
    else if (!isEnvVarName(name)) errs.push(fieldInvalid(`${at}.name`, name, ENV_VAR_NAME));
    errs.push(...valueFromErrors(e, `${at}.valueFrom`));
  });
  return errs;
}

/** kube's ValidateEnvFrom: a valid prefix, a named source, and exactly one of configMapRef and secretRef (reported on the list). */
export function validateEnvFrom(envFrom: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(envFrom).forEach((e, i) => {
    const prefix = str(e.prefix);
    if (prefix && !isEnvVarName(prefix)) errs.push(fieldInvalid(`${field}[${i}].prefix`, prefix, ENV_VAR_NAME));
    for (const ref of ['configMapRef', 'secretRef']) {
      const source = e[ref];
      if (!isObj(source)) continue;
      const name = str(source.name);
      // kube's ValidateConfigMapName / ValidateSecretName with a prefix: the name may end in anything a name may hold.
      if (!name) errs.push(fieldRequired(`${field}[${i}].${ref}.name`));
      else for (const msg of isDNS1123Subdomain(maskTrailingDash(name))) errs.push(fieldInvalid(`${field}[${i}].${ref}.name`, name, msg));
    }
    const sources = ['configMapRef', 'secretRef'].filter((s) => isSet(e[s])).length;
    if (sources === 0) errs.push(fieldInvalid(field, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(fieldInvalid(field, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
