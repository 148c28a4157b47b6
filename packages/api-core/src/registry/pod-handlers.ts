import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, isObj, isPortName, type FieldError, type Obj } from '@kapi/apimachinery';
import { portNumberErrors } from './ports.js';

// A container's probes and lifecycle hooks as kube 1.33 validates them (validateProbe, validateHandler,
// validateLifecycle in pkg/apis/core/validation): exactly one handler each, with valid ports, paths and schemes.

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HTTP_HEADER_NAME =
  "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
const NONNEGATIVE = 'must be greater than or equal to 0';

/** kube's ValidatePortNumOrName: a number 1-65535 or an IANA service name. */
export function portNumOrNameErrors(field: string, port: unknown): FieldError[] {
  if (typeof port === 'string') return isPortName(port).map((msg) => fieldInvalid(field, port, msg));
  return portNumberErrors(field, port);
}

type Handler = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc' | 'sleep';

function handlerErrors(kind: Handler, h: Obj, field: string, gracePeriod: unknown): FieldError[] {
  switch (kind) {
    case 'exec':
      return Array.isArray(h.command) && h.command.length ? [] : [fieldRequired(`${field}.command`)];
    case 'httpGet': {
      const errs: FieldError[] = [];
      if (!h.path) errs.push(fieldRequired(`${field}.path`));
      errs.push(...portNumOrNameErrors(`${field}.port`, h.port));
      if (!HTTP_SCHEMES.includes(String(h.scheme ?? ''))) errs.push(fieldNotSupported(`${field}.scheme`, h.scheme ?? '', HTTP_SCHEMES));
      for (const header of Array.isArray(h.httpHeaders) ? h.httpHeaders : []) {
        const name = isObj(header) ? String(header.name ?? '') : '';
        if (!/^[-A-Za-z0-9]+$/.test(name)) errs.push(fieldInvalid(`${field}.httpHeaders`, name, HTTP_HEADER_NAME));
      }
      return errs;
    }
    case 'tcpSocket':
      return portNumOrNameErrors(`${field}.port`, h.port);
    case 'grpc':
      return portNumberErrors(`${field}.port`, h.port);
    case 'sleep': {
      // kube 1.33 (PodLifecycleSleepActionAllowZero on by default): 0 up to the pod's grace period.
      const seconds = typeof h.seconds === 'number' ? h.seconds : 0;
      if (typeof gracePeriod !== 'number' || (seconds >= 0 && seconds <= gracePeriod)) return [];
      return [fieldInvalid(field, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
    }
  }
}

/** kube's validateHandler: exactly one of `kinds` set (the first one counts; each further one is Forbidden). */
function validateHandler(handler: Obj, kinds: readonly Handler[], field: string, gracePeriod: unknown): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    const h = handler[kind];
    if (h === undefined || h === null) continue;
    if (count++ > 0) errs.push(fieldForbidden(`${field}.${kind}`, 'may not specify more than 1 handler type'));
    else errs.push(...handlerErrors(kind, isObj(h) ? h : {}, `${field}.${kind}`, gracePeriod));
  }
  if (count === 0) errs.push(fieldRequired(field, 'must specify a handler type'));
  return errs;
}

const PROBE_HANDLERS: readonly Handler[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS: readonly Handler[] = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** kube's validateLivenessProbe / validateReadinessProbe / validateStartupProbe, at `<container>.<kind>`. */
export function validateProbe(container: Obj, kind: ProbeKind, at: string, gracePeriod: unknown): FieldError[] {
  const probe = container[kind];
  if (!isObj(probe)) return [];
  const field = `${at}.${kind}`;
  const errs = validateHandler(probe, PROBE_HANDLERS, field, gracePeriod);
  for (const name of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const v = probe[name];
    if (typeof v === 'number' && v < 0) errs.push(fieldInvalid(`${field}.${name}`, v, NONNEGATIVE));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) errs.push(fieldInvalid(`${field}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  if (kind !== 'readinessProbe' && probe.successThreshold !== undefined && probe.successThreshold !== 1) {
    errs.push(fieldInvalid(`${field}.successThreshold`, probe.successThreshold, 'must be 1'));
  }
  if (kind === 'readinessProbe' && grace !== undefined && grace !== null) {
    errs.push(fieldInvalid(`${field}.terminationGracePeriodSeconds`, grace, 'must not be set for readinessProbes'));
  }
  return errs;
}

/** kube's validateLifecycle: postStart and preStop each one handler. */
export function validateLifecycle(lifecycle: Obj, field: string, gracePeriod: unknown): FieldError[] {
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop']) {
    const h = lifecycle[hook];
    if (isObj(h)) errs.push(...validateHandler(h, LIFECYCLE_HANDLERS, `${field}.${hook}`, gracePeriod));
  }
  return errs;
}

/** The probes and lifecycle of a regular container, or of an init container that restarts Always (a sidecar). */
export function validateProbesAndLifecycle(c: Obj, at: string, gracePeriod: unknown): FieldError[] {
  const errs = isObj(c.lifecycle) ? validateLifecycle(c.lifecycle, `${at}.lifecycle`, gracePeriod) : [];
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) errs.push(...validateProbe(c, kind, at, gracePeriod));
  return errs;
}

/** An init container that is not a sidecar may have no lifecycle or probes. */
export function forbiddenForInitContainer(c: Obj, at: string): FieldError[] {
  return ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']
    .filter((k) => c[k] !== undefined && c[k] !== null)
    .map((k) => fieldForbidden(`${at}.${k}`, 'may not be set for init containers without restartPolicy=Always'));
}
