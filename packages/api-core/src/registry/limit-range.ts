import { asObj, asObjects, fieldDuplicate, fieldForbidden, fieldInvalid, fieldRequired, GoValue, goQuantityRepr, isLabelKey, isObj, str, type FieldError, type KubeObject, type Obj, type TypeDefaulter } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { overcommits, resourceNameErrors } from './pod-resources.js';
import { compareQuantities, toNumber } from './quantity.js';

// kube 1.33's LimitRange (pkg/apis/core/v1 SetDefaults_LimitRangeItem, pkg/apis/core/validation ValidateLimitRange):
// a Container item's default limit and request are filled in from its max, default and min; the items' types,
// resource names and values are checked and must agree (min <= default request <= default <= max).

const STANDARD_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

const sortedKeys = (o: Obj) => Object.keys(o).sort();

/** SetDefaults_LimitRangeItem: a Container item's default limit from its max, default request from its default or min. */
export const limitRangeItemDefaulter: TypeDefaulter = (item) => {
  if (item.type !== 'Container') return;
  const defaults = asObj(item.default);
  const requests = asObj(item.defaultRequest);
  for (const [name, q] of Object.entries(asObj(item.max))) if (!Object.hasOwn(defaults, name)) defaults[name] = q;
  for (const [name, q] of Object.entries(defaults)) if (!Object.hasOwn(requests, name)) requests[name] = q;
  for (const [name, q] of Object.entries(asObj(item.min))) if (!Object.hasOwn(requests, name)) requests[name] = q;
  if (Object.keys(defaults).length) item.default = defaults;
  if (Object.keys(requests).length) item.defaultRequest = requests;
};

/** kube's validateLimitRangeTypeName: a qualified name, one of kube's types unless it has a domain. */
function typeErrors(type: string, field: string): FieldError[] {
  const invalid = isLabelKey(type).map((msg) => fieldInvalid(field, type, msg));
  if (invalid.length) return invalid;
  return !type.includes('/') && !STANDARD_TYPES.has(type) ? [fieldInvalid(field, type, 'must be a standard limit type or fully qualified')] : [];
}

/** A quantity as field.Invalid prints a resource.Quantity value (Go's %#v of the struct). */
const goQuantity = (q: unknown) => new GoValue(goQuantityRepr(String(q)));
const text = (q: unknown) => String(q);

/** The agreement of one resource's values in an item (kube checks each resource any list names). */
function relationErrors(at: string, k: string, lists: Record<'min' | 'max' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio', Obj>): FieldError[] {
  const errs: FieldError[] = [];
  const get = (list: keyof typeof lists) => (Object.hasOwn(lists[list], k) ? lists[list][k] : undefined);
  const [min, max, dflt, request, ratio] = [get('min'), get('max'), get('default'), get('defaultRequest'), get('maxLimitRequestRatio')];
  const greater = (a: unknown, b: unknown) => a !== undefined && b !== undefined && compareQuantities(a, b) > 0;
  if (greater(min, max)) errs.push(fieldInvalid(`${at}.min[${k}]`, goQuantity(min), `min value ${text(min)} is greater than max value ${text(max)}`));
  if (greater(min, request)) errs.push(fieldInvalid(`${at}.defaultRequest[${k}]`, goQuantity(request), `min value ${text(min)} is greater than default request value ${text(request)}`));
  if (greater(request, max)) errs.push(fieldInvalid(`${at}.defaultRequest[${k}]`, goQuantity(request), `default request value ${text(request)} is greater than max value ${text(max)}`));
  if (greater(request, dflt)) errs.push(fieldInvalid(`${at}.defaultRequest[${k}]`, goQuantity(request), `default request value ${text(request)} is greater than default limit value ${text(dflt)}`));
  if (greater(min, dflt)) errs.push(fieldInvalid(`${at}.default[${k}]`, goQuantity(min), `min value ${text(min)} is greater than default value ${text(dflt)}`));
  if (greater(dflt, max)) errs.push(fieldInvalid(`${at}.default[${k}]`, goQuantity(max), `default value ${text(dflt)} is greater than max value ${text(max)}`));
  if (ratio !== undefined && compareQuantities(ratio, '1') < 0) errs.push(fieldInvalid(`${at}.maxLimitRequestRatio[${k}]`, goQuantity(ratio), `ratio ${text(ratio)} is less than 1`));
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    const limit = toNumber(max) / toNumber(min);
    if (toNumber(ratio) > limit) errs.push(fieldInvalid(`${at}.maxLimitRequestRatio[${k}]`, goQuantity(ratio), `ratio ${text(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
  }
  if (!overcommits(k) && dflt !== undefined && request !== undefined && compareQuantities(dflt, request) !== 0) {
    errs.push(fieldInvalid(`${at}.defaultRequest[${k}]`, goQuantity(request), `default value ${text(dflt)} must equal to defaultRequest value ${text(request)} in ${k}`));
  }
  return errs;
}

/** LimitRanges are validated as kube validates them, on create and update alike. */
export const limitRangeStrategy: Strategy = { validate: (obj) => validateLimitRange(obj) };

/** kube's ValidateLimitRange (its metadata is checked by the server). */
export function validateLimitRange(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  asObjects(isObj(obj.spec) ? obj.spec.limits : undefined).forEach((limit, i) => {
    const at = `spec.limits[${i}]`;
    const type = str(limit.type);
    errs.push(...typeErrors(type, `${at}.type`));
    if (seen.has(type)) errs.push(fieldDuplicate(`${at}.type`, type));
    seen.add(type);
    const forContainers = type === 'Pod' || type === 'Container';
    const lists = {
      max: asObj(limit.max),
      min: asObj(limit.min),
      default: asObj(limit.default),
      defaultRequest: asObj(limit.defaultRequest),
      maxLimitRequestRatio: asObj(limit.maxLimitRequestRatio),
    };
    const keys = new Set<string>();
    const names = (list: keyof typeof lists) => {
      for (const k of sortedKeys(lists[list])) {
        errs.push(...resourceNameErrors(k, `${at}.${list}[${k}]`, forContainers));
        keys.add(k);
      }
    };
    names('max');
    names('min');
    if (type === 'Pod') {
      if (Object.keys(lists.default).length) errs.push(fieldForbidden(`${at}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(lists.defaultRequest).length) errs.push(fieldForbidden(`${at}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      names('default');
      names('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !Object.hasOwn(lists.min, 'storage') && !Object.hasOwn(lists.max, 'storage')) {
      errs.push(fieldRequired(`${at}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    names('maxLimitRequestRatio');
    for (const k of [...keys].sort()) errs.push(...relationErrors(at, k, lists));
  });
  return errs;
}
