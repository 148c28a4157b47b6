// kube's validateMatchResources: a policy's matchConstraints and a binding's matchResources.
import { validateLabelSelector, type FieldError } from '@kapi/apimachinery';
import { child, index, notSupported, required } from './errors.js';
import { validateNamedRuleWithOperations } from './rules.js';
import { isObj, isSet, objects, text } from './values.js';

const MATCH_POLICIES = ['Exact', 'Equivalent'];

/** matchPolicy and both selectors required (all defaulted), selectors checked strictly, every rule checked. Nothing when absent. */
export function validateMatchResources(mc: unknown, field: string): FieldError[] {
  if (!isObj(mc)) return [];
  const errs: FieldError[] = [];
  if (!isSet(mc.matchPolicy)) errs.push(required(child(field, 'matchPolicy')));
  else if (!MATCH_POLICIES.includes(text(mc.matchPolicy))) errs.push(notSupported(child(field, 'matchPolicy'), text(mc.matchPolicy), MATCH_POLICIES));
  for (const name of ['namespaceSelector', 'objectSelector']) {
    if (!isSet(mc[name])) errs.push(required(child(field, name)));
    else errs.push(...validateLabelSelector(mc[name], child(field, name)));
  }
  objects(mc.resourceRules).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, index(child(field, 'resourceRules'), i))));
  objects(mc.excludeResourceRules).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, index(child(field, 'excludeResourceRules'), i))));
  return errs;
}
