// kube's ValidateValidatingAdmissionPolicy, its Update form and ValidateValidatingAdmissionPolicyStatusUpdate.
import { isDNS1035Label, isDNS1123Subdomain, validateLabelName, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { validateConditions } from './conditions.js';
import { checkExpression } from './expressions.js';
import { child, duplicate, index, invalid, notSupported, required } from './errors.js';
import { matchConditionExpressions, validateMatchConditions } from './match-conditions.js';
import { validateMatchResources } from './match-resources.js';
import { isCELIdentifier, parseGroupVersion } from './names.js';
import type { CheckExpression } from './options.js';
import { byteLength, isObj, isSet, list, obj, objects, text, trimSpace, type Obj } from './values.js';

const FAILURE_POLICIES = ['Ignore', 'Fail'];
/**
 * The reasons a validation may give. The validation.go this follows lists Forbidden, Invalid and
 * RequestEntityTooLarge; the v1 API documents Unauthorized too, which is accepted here.
 */
const REASONS = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_VALUE_EXPRESSION_LENGTH = 5 * 1024;

/** kube's preexistingExpressions of the old policy (their environment is StoredExpressions) and ignoreMatchConditions. */
export interface PolicyValidationOptions {
  check?: CheckExpression;
  ignoreMatchConditions: boolean;
  matchConditions: ReadonlySet<string>;
  validations: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
  auditAnnotationValues: ReadonlySet<string>;
}

const none = new Set<string>();
export const policyCreateOptions = (check?: CheckExpression): PolicyValidationOptions => ({
  check,
  ignoreMatchConditions: false,
  matchConditions: none,
  validations: none,
  messageExpressions: none,
  auditAnnotationValues: none,
});

const jsonText = (v: unknown): string => JSON.stringify(v ?? null);

export function policyUpdateOptions(policy: KubeObject, old: KubeObject, check?: CheckExpression): PolicyValidationOptions {
  const spec = obj(policy.spec);
  const oldSpec = obj(old.spec);
  const validations = objects(oldSpec.validations);
  return {
    check,
    ignoreMatchConditions: jsonText(spec.paramKind) === jsonText(oldSpec.paramKind) && jsonText(spec.matchConditions) === jsonText(oldSpec.matchConditions),
    matchConditions: new Set(matchConditionExpressions(oldSpec.matchConditions)),
    validations: new Set(validations.map((v) => text(v.expression))),
    messageExpressions: new Set(validations.map((v) => text(v.messageExpression)).filter((m) => m.length > 0)),
    auditAnnotationValues: new Set(objects(oldSpec.auditAnnotations).map((a) => text(a.valueExpression))),
  };
}

function validateParamKind(pk: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = text(pk.apiVersion);
  const f = child(field, 'apiVersion');
  if (apiVersion.length === 0) errs.push(required(f));
  else {
    const gv = parseGroupVersion(apiVersion);
    if ('error' in gv) errs.push(invalid(f, apiVersion, gv.error));
    else {
      if (gv.group.length > 0) {
        const groupErrs = isDNS1123Subdomain(gv.group);
        if (groupErrs.length) errs.push(invalid(f, gv.group, groupErrs.join(',')));
      }
      if (gv.version.length === 0) errs.push(invalid(f, apiVersion, 'version must be specified'));
      else {
        const versionErrs = isDNS1035Label(gv.version);
        if (versionErrs.length) errs.push(invalid(f, gv.version, versionErrs.join(',')));
      }
    }
  }
  const kind = text(pk.kind);
  if (kind.length === 0) errs.push(required(child(field, 'kind')));
  else {
    const kindErrs = isDNS1035Label(kind.toLowerCase());
    if (kindErrs.length) errs.push(invalid(child(field, 'kind'), kind, `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`));
  }
  return errs;
}

const hasNewlines = (s: string) => /[\n\r]/.test(s);

function validateValidation(v: Obj, hasParams: boolean, variables: string[], opts: PolicyValidationOptions, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const expression = text(v.expression);
  const message = text(v.message);
  const messageExpression = text(v.messageExpression);
  if (trimSpace(expression).length === 0) errs.push(required(child(field, 'expression'), 'expression is not specified'));
  else {
    const context = { field: child(field, 'expression'), hasParams, hasAuthorizer: true, stored: opts.validations.has(expression), variables };
    errs.push(...checkExpression(opts.check, expression, 'validation', context));
  }
  if (messageExpression.length > 0 && trimSpace(messageExpression).length === 0) {
    errs.push(invalid(child(field, 'messageExpression'), messageExpression, 'must be non-empty if specified'));
  } else if (trimSpace(messageExpression).length !== 0) {
    const context = { field: child(field, 'messageExpression'), hasParams, hasAuthorizer: false, stored: opts.messageExpressions.has(messageExpression), variables };
    errs.push(...checkExpression(opts.check, messageExpression, 'messageExpression', context));
  }
  const trimmedMessage = trimSpace(message);
  if (message.length > 0 && trimmedMessage.length === 0) errs.push(invalid(child(field, 'message'), message, 'message must be non-empty if specified'));
  else if (hasNewlines(trimmedMessage)) errs.push(invalid(child(field, 'message'), message, 'message must not contain line breaks'));
  if (isSet(v.reason) && !REASONS.includes(text(v.reason))) errs.push(notSupported(child(field, 'reason'), text(v.reason), REASONS));
  return errs;
}

function validateVariable(v: Obj, hasParams: boolean, earlier: string[], opts: PolicyValidationOptions, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(v.name);
  const expression = text(v.expression);
  if (trimSpace(name).length === 0) errs.push(required(child(field, 'name'), 'name is not specified'));
  else if (!isCELIdentifier(name)) errs.push(invalid(child(field, 'name'), name, 'name is not a valid CEL identifier'));
  if (trimSpace(expression).length === 0) errs.push(required(child(field, 'expression'), 'expression is not specified'));
  else {
    // kube looks a variable up among the old validations' expressions to pick its environment; so does this
    const context = { field: child(field, 'expression'), hasParams, hasAuthorizer: true, stored: opts.validations.has(expression), variables: earlier };
    errs.push(...checkExpression(opts.check, expression, 'variable', context));
  }
  return errs;
}

function validateAuditAnnotation(a: Obj, policyName: string, hasParams: boolean, variables: string[], opts: PolicyValidationOptions, field: string): FieldError[] {
  const key = text(a.key);
  const errs =
    policyName.length !== 0
      ? validateLabelName(`${policyName}/${key}`, child(field, 'key'))
      : [invalid(child(field, 'key'), key, 'requires metadata.name be non-empty')];
  const valueExpression = text(a.valueExpression);
  const trimmed = trimSpace(valueExpression);
  const f = child(field, 'valueExpression');
  if (trimmed.length === 0) errs.push(required(f, 'valueExpression is not specified'));
  else if (byteLength(trimmed) > MAX_AUDIT_VALUE_EXPRESSION_LENGTH) errs.push(required(f, `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION_LENGTH} bytes in length`));
  else {
    const context = { field: f, hasParams, hasAuthorizer: true, stored: opts.auditAnnotationValues.has(valueExpression), variables };
    errs.push(...checkExpression(opts.check, trimmed, 'auditAnnotation', context, valueExpression));
  }
  return errs;
}

/** validateValidatingAdmissionPolicySpec at `spec` (object metadata is the Store's). */
export function validatePolicy(policy: KubeObject, opts: PolicyValidationOptions): FieldError[] {
  const spec = obj(policy.spec);
  const errs: FieldError[] = [];
  if (!isSet(spec.failurePolicy)) errs.push(required('spec.failurePolicy'));
  else if (!FAILURE_POLICIES.includes(text(spec.failurePolicy))) errs.push(notSupported('spec.failurePolicy', text(spec.failurePolicy), FAILURE_POLICIES));
  const hasParams = isSet(spec.paramKind);
  if (hasParams) errs.push(...validateParamKind(obj(spec.paramKind), 'spec.paramKind'));
  if (!isSet(spec.matchConstraints)) errs.push(required('spec.matchConstraints'));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    // at least one resource rule gives the expressions their type information
    if (list(obj(spec.matchConstraints).resourceRules).length === 0) errs.push(required('spec.matchConstraints.resourceRules'));
  }
  if (!opts.ignoreMatchConditions) {
    errs.push(...validateMatchConditions(spec.matchConditions, { check: opts.check, kind: 'policyMatchCondition', hasParams, stored: opts.matchConditions }, 'spec.matchConditions'));
  }
  const variables = objects(spec.variables);
  const names: string[] = [];
  variables.forEach((v, i) => {
    const field = index('spec.variables', i);
    errs.push(...validateVariable(v, hasParams, [...names], opts, field));
    const name = text(v.name);
    // a map-keyed list: each name once (not in the validation.go this follows; see the package's changeset)
    if (name.length > 0 && names.includes(name)) errs.push(duplicate(child(field, 'name'), name));
    names.push(name);
  });
  const allVariables = [...new Set(names.filter((n) => n.length > 0))];
  const validations = objects(spec.validations);
  const auditAnnotations = objects(spec.auditAnnotations);
  if (validations.length === 0 && auditAnnotations.length === 0) {
    errs.push(required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errs.push(required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, hasParams, allVariables, opts, index('spec.validations', i))));
  if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) {
    errs.push(invalid('spec.auditAnnotations', spec.auditAnnotations, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const policyName = text(obj(policy.metadata).name);
  const keys = new Set<string>();
  auditAnnotations.forEach((a, i) => {
    const field = index('spec.auditAnnotations', i);
    errs.push(...validateAuditAnnotation(a, policyName, hasParams, allVariables, opts, field));
    const key = text(a.key);
    if (keys.has(key)) errs.push(duplicate(child(field, 'key'), key));
    keys.add(key);
  });
  return errs;
}

/** validateValidatingAdmissionPolicyStatus: expression warnings need a warning and a fieldRef; conditions as metav1's. */
export function validatePolicyStatus(policy: KubeObject): FieldError[] {
  const status = obj(policy.status);
  const errs: FieldError[] = [];
  if (isObj(status.typeChecking)) {
    objects(status.typeChecking.expressionWarnings).forEach((w, i) => {
      const field = index('status.typeChecking.expressionWarnings', i);
      if (text(w.warning) === '') errs.push(required(child(field, 'warning')));
      // kube also parses the fieldRef as a JSONPath; that parse is not done here
      if (trimSpace(text(w.fieldRef)) === '') errs.push(required(child(field, 'fieldRef')));
    });
  }
  errs.push(...validateConditions(status.conditions, 'status.conditions'));
  return errs;
}
