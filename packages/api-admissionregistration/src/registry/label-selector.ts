// metav1validation.ValidateLabelSelector (k8s.io/apimachinery/pkg/apis/meta/v1/validation) and the protobuf
// String() of a LabelSelector that kube's printers show.
import { isLabelKey, isLabelValue, validateLabels, type FieldError } from '@kapi/apimachinery';
import { child, forbidden, index, invalid, required } from './errors.js';
import { isObj, obj, objects, strings, text } from './values.js';

export interface LabelSelectorOptions {
  /** Kept for objects stored before kube validated selector values (webhooks, on update only). */
  allowInvalidLabelValueInSelector?: boolean;
}

function validateRequirement(req: Record<string, unknown>, options: LabelSelectorOptions, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = text(req.operator);
  const values = strings(req.values);
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(child(field, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(child(field, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalid(child(field, 'operator'), operator, 'not a valid selector operator'));
  }
  errs.push(...isLabelKey(text(req.key)).map((msg) => invalid(child(field, 'key'), text(req.key), msg)));
  if (!options.allowInvalidLabelValueInSelector) {
    values.forEach((value, i) => {
      for (const msg of isLabelValue(value)) errs.push(invalid(index(child(field, 'values'), i), value, msg));
    });
  }
  return errs;
}

/** ValidateLabelSelector: nothing for an absent selector. */
export function validateLabelSelector(selector: unknown, options: LabelSelectorOptions, field: string): FieldError[] {
  if (!isObj(selector)) return [];
  const errs = validateLabels(selector.matchLabels, child(field, 'matchLabels'));
  objects(selector.matchExpressions).forEach((req, i) => errs.push(...validateRequirement(req, options, index(child(field, 'matchExpressions'), i))));
  return errs;
}

/** Go's `%v` of a []string: `[a b]`. */
const goList = (values: readonly string[]): string => `[${values.join(' ')}]`;

/** (*metav1.LabelSelector).String(), as generated.pb.go writes it: `&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}`. */
export function labelSelectorString(selector: unknown): string {
  if (!isObj(selector)) return 'nil';
  const labels = obj(selector.matchLabels);
  const labelText = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${text(labels[k])},`)
    .join('');
  const expressions = objects(selector.matchExpressions)
    .map((e) => `LabelSelectorRequirement{Key:${text(e.key)},Operator:${text(e.operator)},Values:${goList(strings(e.values))},},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labelText}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
