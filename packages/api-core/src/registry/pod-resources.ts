import { fieldForbidden, fieldInvalid, fieldRequired, GoValue, goQuantityRepr, isLabelKey, isObj, type FieldError } from '@kapi/apimachinery';
import { compareQuantities, isWholeQuantity } from './quantity.js';

// A container's resources as kube 1.33's ValidateContainerResourceRequirements checks them: resource names,
// quantities that are not negative (whole numbers for extended resources), requests within limits (equal to them
// for resources that cannot be overcommitted), and huge pages only beside cpu or memory.

/** helper.standardResources: what a name without a domain may be. */
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const isHugePages = (name: string) => name.startsWith('hugepages-');
const isStandard = (name: string) => STANDARD_RESOURCES.has(name) || isHugePages(name) || name.startsWith('requests.hugepages-');
/** helper.IsNativeResource: no domain, or one in kubernetes.io. */
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** helper.IsExtendedResourceName: not native, and `requests.<name>` a qualified name. */
const isExtended = (name: string) => !isNative(name) && !name.startsWith('requests.') && isLabelKey(`requests.${name}`).length === 0;
/** helper.IsOvercommitAllowed: native resources but huge pages may be requested below their limit. */
export const overcommits = (name: string) => isNative(name) && !isHugePages(name);

/** kube's validateContainerResourceName (`forContainers`), or validateResourceName (any standard resource). */
export function resourceNameErrors(name: string, field: string, forContainers = true): FieldError[] {
  const invalid = isLabelKey(name).map((msg) => fieldInvalid(field, name, msg));
  if (invalid.length) return invalid;
  if (!name.includes('/')) {
    if (!isStandard(name)) return [fieldInvalid(field, name, 'must be a standard resource type or fully qualified')];
    if (forContainers && !CONTAINER_RESOURCES.has(name) && !isHugePages(name)) return [fieldInvalid(field, name, 'must be a standard resource for containers')];
  } else if (forContainers && !isNative(name) && !isExtended(name)) {
    return [fieldInvalid(field, name, "doesn't follow extended resource name standard")];
  }
  return [];
}

/** Quantity.String() of a stored quantity (already canonical), for messages. */
const text = (q: unknown) => String(q ?? '0');

/** helper.integerResources: what is counted in whole units (with extended resources: helper.IsIntegerResourceName). */
const INTEGER_RESOURCES = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);

/** kube's ValidateResourceQuantityValue: not negative, and whole for resources counted in units (containers' and quotas'). */
export function quantityErrors(name: string, quantity: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (compareQuantities(quantity, '0') < 0) errs.push(fieldInvalid(field, text(quantity), 'must be greater than or equal to 0'));
  // kube passes the Quantity itself (not a Stringer: String() has a pointer receiver), so the struct is printed.
  if ((INTEGER_RESOURCES.has(name) || isExtended(name)) && !isWholeQuantity(quantity)) {
    errs.push(fieldInvalid(field, new GoValue(goQuantityRepr(text(quantity))), 'must be an integer'));
  }
  return errs;
}

/** A resource list's entries by name (Go's map order made sorted). */
export const sortedEntries = (list: unknown): [string, unknown][] => (isObj(list) ? Object.entries(list).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : []);

/** kube's ValidateContainerResourceRequirements (limits, then requests; Go's map order made sorted). */
export function validateContainerResources(resources: unknown, field: string): FieldError[] {
  const r = isObj(resources) ? resources : {};
  const limits = isObj(r.limits) ? r.limits : {};
  const errs: FieldError[] = [];
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, quantity] of sortedEntries(r.limits)) {
    const at = `${field}.limits[${name}]`;
    errs.push(...resourceNameErrors(name, at), ...quantityErrors(name, quantity, at));
    hugePages ||= isHugePages(name);
    cpuOrMemory ||= name === 'cpu' || name === 'memory';
  }
  for (const [name, quantity] of sortedEntries(r.requests)) {
    const at = `${field}.requests[${name}]`;
    errs.push(...resourceNameErrors(name, at), ...quantityErrors(name, quantity, at));
    if (Object.hasOwn(limits, name)) {
      const limit = limits[name];
      const cmp = compareQuantities(quantity, limit);
      if (cmp !== 0 && !overcommits(name)) errs.push(fieldInvalid(`${field}.requests`, text(quantity), `must be equal to ${name} limit of ${text(limit)}`));
      else if (cmp > 0) errs.push(fieldInvalid(`${field}.requests`, text(quantity), `must be less than or equal to ${name} limit of ${text(limit)}`));
    } else if (!overcommits(name)) {
      errs.push(fieldRequired(`${field}.limits`, 'Limit must be set for non overcommitable resources'));
    }
    hugePages ||= isHugePages(name);
    cpuOrMemory ||= name === 'cpu' || name === 'memory';
  }
  if (hugePages && !cpuOrMemory) errs.push(fieldForbidden(field, 'HugePages require cpu or memory'));
  return errs;
}
