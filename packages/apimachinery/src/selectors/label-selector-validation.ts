// metav1validation.ValidateLabelSelector (k8s.io/apimachinery/pkg/apis/meta/v1/validation): the label selectors of
// workloads, topology spread constraints, admission webhooks and policies are checked alike.
import { fieldChild as join, fieldForbidden, fieldInvalid, fieldRequired } from '../errors/field-constructors.js';
import type { FieldError } from '../validation/types.js';
import { isLabelValue, validateLabelName, validateLabels } from './label-validation.js';

export interface LabelSelectorOptions {
  /** Kept for objects stored before kube validated selector values (webhooks, on update only). */
  allowInvalidLabelValueInSelector?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function validateRequirement(req: Obj, options: LabelSelectorOptions, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = text(req.operator);
  const values = Array.isArray(req.values) ? req.values.map(text) : [];
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldRequired(join(field, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldForbidden(join(field, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(fieldInvalid(join(field, 'operator'), operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(text(req.key), join(field, 'key')));
  if (!options.allowInvalidLabelValueInSelector) {
    values.forEach((value, i) => {
      for (const msg of isLabelValue(value)) errs.push(fieldInvalid(`${join(field, 'values')}[${i}]`, value, msg));
    });
  }
  return errs;
}

/** kube's ValidateLabelSelector: its labels, and each requirement's operator, key and values; nothing when absent. */
export function validateLabelSelector(selector: unknown, field: string, options: LabelSelectorOptions = {}): FieldError[] {
  if (!isObj(selector)) return [];
  const errs = validateLabels(selector.matchLabels, join(field, 'matchLabels'));
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((req, i) => errs.push(...validateRequirement(isObj(req) ? req : {}, options, `${join(field, 'matchExpressions')}[${i}]`)));
  return errs;
}
