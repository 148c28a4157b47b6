// The protobuf String() of a LabelSelector that kube's printers show. (Selectors are validated with
// @kapi/apimachinery's validateLabelSelector.)
import { isObj, obj, objects, strings, text } from './values.js';

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
