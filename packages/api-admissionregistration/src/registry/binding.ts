// kube's ValidateValidatingAdmissionPolicyBinding (and its Update form, the same checks).
import { fieldNotSupported, isDNS1123Subdomain, validateLabelSelector, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { child, duplicate, forbidden, index, invalid, notSupported, required } from './errors.js';
import { validateMatchResources } from './match-resources.js';
import { isValidPathSegmentName } from '@kapi/apiserver';
import { isObj, isSet, list, obj, text } from './values.js';

const ACTIONS = ['Deny', 'Warn', 'Audit'];
const NOT_FOUND_ACTIONS = ['Deny', 'Allow'];

/** validateParamRef: name xor selector, parameterNotFoundAction required. Nothing when absent. */
function validateParamRef(pr: unknown, field: string): FieldError[] {
  if (!isObj(pr)) return [];
  const errs: FieldError[] = [];
  const name = text(pr.name);
  const hasSelector = isSet(pr.selector);
  if (name.length > 0) {
    for (const msg of isValidPathSegmentName(name)) errs.push(invalid(child(field, 'name'), name, msg));
    if (hasSelector) errs.push(forbidden(child(field, 'name'), 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(pr.selector, child(field, 'selector')));
    if (name.length > 0) errs.push(forbidden(child(field, 'selector'), 'name and selector are mutually exclusive'));
  }
  if (name.length === 0 && !hasSelector) errs.push(required(field, 'one of name or selector must be specified'));
  const action = text(pr.parameterNotFoundAction);
  if (action.length === 0) errs.push(required(child(field, 'parameterNotFoundAction')));
  else if (!NOT_FOUND_ACTIONS.includes(action)) {
    // kube lists these two unsorted
    errs.push(fieldNotSupported(child(field, 'parameterNotFoundAction'), action, NOT_FOUND_ACTIONS));
  }
  return errs;
}

/** validateValidationActions: each known and once, not Deny with Warn, at least one. */
function validateValidationActions(actions: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const items = list(actions).map(text);
  const seen = new Set<string>();
  items.forEach((action, i) => {
    if (!ACTIONS.includes(action)) errs.push(notSupported(index(field, i), action, ACTIONS));
    if (seen.has(action)) errs.push(duplicate(index(field, i), action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid(field, items, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(field, 'at least one validation action is required'));
  return errs;
}

export function validatePolicyBinding(binding: KubeObject): FieldError[] {
  const spec = obj(binding.spec);
  const errs: FieldError[] = [];
  const policyName = text(spec.policyName);
  if (policyName.length === 0) errs.push(required('spec.policyName'));
  else for (const msg of isDNS1123Subdomain(policyName)) errs.push(invalid('spec.policyName', policyName, msg));
  errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'));
  errs.push(...validateValidationActions(spec.validationActions, 'spec.validationActions'));
  return errs;
}
