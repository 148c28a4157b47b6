// kube's validateRule, validateRuleWithOperations and validateNamedRuleWithOperations.
import type { FieldError } from '@kapi/apimachinery';
import { child, duplicate, index, invalid, notSupported, required } from './errors.js';
import { isValidPathSegmentName } from '@kapi/apiserver';
import { strings, type Obj } from './values.js';

const SCOPES = ['Cluster', 'Namespaced', '*'];
const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

// validateResources: `resource` or `resource/subresource`, with kube's rules for the wildcard forms (`*`, `*/*`, `x/*`, `*/x`).
export function validateResources(resources: string[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(field));
  const withWildcardSub = new Set<string>(); // x/*
  const subWithWildcardRes = new Set<string>(); // */x
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(index(field, i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // kube keeps the last answer, not "any": a later `*` clears an earlier plain resource
      withoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) errs.push(invalid(index(field, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(index(field, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(field, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource) errs.push(invalid(field, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRule with subresources allowed (every admissionregistration rule allows them). */
export function validateRule(rule: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule.apiGroups);
  const versions = strings(rule.apiVersions);
  if (groups.length === 0) errs.push(required(child(field, 'apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalid(child(field, 'apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  if (versions.length === 0) errs.push(required(child(field, 'apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalid(child(field, 'apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(index(child(field, 'apiVersions'), i)));
  });
  errs.push(...validateResources(strings(rule.resources), child(field, 'resources')));
  if (typeof rule.scope === 'string' && !SCOPES.includes(rule.scope)) errs.push(notSupported(child(field, 'scope'), rule.scope, SCOPES));
  return errs;
}

export function validateRuleWithOperations(rule: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) errs.push(required(child(field, 'operations')));
  if (operations.length > 1 && operations.includes('*')) errs.push(invalid(child(field, 'operations'), operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(index(child(field, 'operations'), i), op, OPERATIONS));
  });
  errs.push(...validateRule(rule, field));
  return errs;
}

/** resourceNames: path segment names, each once; then the rule. */
export function validateNamedRuleWithOperations(rule: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((name, i) => {
    const f = index(child(field, 'resourceNames'), i);
    for (const msg of isValidPathSegmentName(name)) errs.push(invalid(f, name, msg));
    if (seen.has(name)) errs.push(duplicate(f, name));
    else seen.add(name);
  });
  errs.push(...validateRuleWithOperations(rule, field));
  return errs;
}

