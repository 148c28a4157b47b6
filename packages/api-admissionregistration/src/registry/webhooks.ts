// kube's ValidateValidatingWebhookConfiguration / ValidateMutatingWebhookConfiguration and their Update forms
// (pkg/apis/admissionregistration/validation/validation.go), on the v1 object.
import { isDNS1035Label, validateLabelSelector, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { validateClientConfig } from './client-config.js';
import { child, duplicate, index, invalid, notSupported, required } from './errors.js';
import { matchConditionExpressions, validateMatchConditions } from './match-conditions.js';
import { validateFullyQualifiedName } from './names.js';
import type { CheckExpression } from './options.js';
import { validateRuleWithOperations } from './rules.js';
import { isObj, isSet, list, objects, text, type Obj } from './values.js';

const FAILURE_POLICIES = ['Ignore', 'Fail'];
const MATCH_POLICIES = ['Exact', 'Equivalent'];
const SIDE_EFFECTS = ['Unknown', 'None', 'Some', 'NoneOnDryRun'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];
/** AcceptedAdmissionReviewVersions */
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** kube's validationOptions for webhooks: create sets the strict ones; an update relaxes what the old object already broke. */
export interface WebhookValidationOptions {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  /** Match condition expressions of the old object. */
  stored: ReadonlySet<string>;
  check?: CheckExpression;
}

export const createOptions = (check?: CheckExpression): WebhookValidationOptions => ({
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
  stored: new Set(),
  check,
});

const webhooksOf = (config: unknown): Obj[] => objects(isObj(config) ? config.webhooks : undefined);

/** validateAdmissionReviewVersions */
function validateAdmissionReviewVersions(versions: unknown, requireRecognized: boolean, field: string): FieldError[] {
  const items = list(versions).map(text);
  if (items.length < 1) return [required(field, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  items.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(index(field, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(index(field, i), v, msg));
    if (REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(invalid(field, items, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** validateValidatingWebhook / validateMutatingWebhook (`mutating` adds reinvocationPolicy). */
function validateWebhook(hook: Obj, mutating: boolean, opts: WebhookValidationOptions, field: string): FieldError[] {
  const errs = validateFullyQualifiedName(child(field, 'name'), text(hook.name));
  objects(hook.rules).forEach((rule, i) => errs.push(...validateRuleWithOperations(rule, index(child(field, 'rules'), i))));
  if (typeof hook.failurePolicy === 'string' && !FAILURE_POLICIES.includes(hook.failurePolicy)) {
    errs.push(notSupported(child(field, 'failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  }
  if (typeof hook.matchPolicy === 'string' && !MATCH_POLICIES.includes(hook.matchPolicy)) {
    errs.push(notSupported(child(field, 'matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  }
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
  if (!isSet(hook.sideEffects)) {
    errs.push(required(child(field, 'sideEffects'), `must specify one of ${[...allowedSideEffects].sort().join(', ')}`));
  } else if (!allowedSideEffects.includes(text(hook.sideEffects))) {
    errs.push(notSupported(child(field, 'sideEffects'), text(hook.sideEffects), allowedSideEffects));
  }
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(invalid(child(field, 'timeoutSeconds'), hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorOptions = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  errs.push(...validateLabelSelector(hook.namespaceSelector, child(field, 'namespaceSelector'), selectorOptions));
  errs.push(...validateLabelSelector(hook.objectSelector, child(field, 'objectSelector'), selectorOptions));
  if (mutating && typeof hook.reinvocationPolicy === 'string' && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errs.push(notSupported(child(field, 'reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  errs.push(...validateClientConfig(child(field, 'clientConfig'), hook.clientConfig));
  if (!opts.ignoreMatchConditions) {
    errs.push(
      ...validateMatchConditions(hook.matchConditions, { check: opts.check, kind: 'webhookMatchCondition', hasParams: false, stored: opts.stored }, child(field, 'matchConditions')),
    );
  }
  return errs;
}

/** Every webhook, its admissionReviewVersions, and (when required) a name used once. Object metadata is the Store's. */
export function validateWebhookConfiguration(config: KubeObject, mutating: boolean, opts: WebhookValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(config).forEach((hook, i) => {
    const field = index('webhooks', i);
    errs.push(...validateWebhook(hook, mutating, opts, field));
    errs.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, child(field, 'admissionReviewVersions')));
    const name = text(hook.name);
    if (opts.requireUniqueWebhookNames && name.length > 0) {
      if (names.has(name)) errs.push(duplicate(child(field, 'name'), name));
      else names.add(name);
    }
  });
  return errs;
}

const jsonText = (v: unknown): string => JSON.stringify(v ?? null);

/** ValidateXWebhookConfigurationUpdate's options: what the old object already got away with stays allowed. */
export function updateOptions(config: KubeObject, old: KubeObject, check?: CheckExpression): WebhookValidationOptions {
  const hooks = webhooksOf(config);
  const oldHooks = webhooksOf(old);
  const sameMatchConditions = hooks.length === oldHooks.length && oldHooks.every((h, i) => jsonText(hooks[i]!.matchConditions) === jsonText(h.matchConditions));
  const oldNames = oldHooks.map((h) => text(h.name));
  const strictSelector = (s: unknown) => validateLabelSelector(s, '').length === 0;
  return {
    ignoreMatchConditions: sameMatchConditions,
    requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECTS.includes(text(h.sideEffects)) && isSet(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const versions = list(h.admissionReviewVersions).map(text);
      return versions.length === 0 || versions.some((v) => REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) => !strictSelector(h.namespaceSelector) || !strictSelector(h.objectSelector)),
    stored: new Set(oldHooks.flatMap((h) => matchConditionExpressions(h.matchConditions))),
    check,
  };
}
