// kube's SetDefaults_* of admissionregistration.k8s.io/v1 (pkg/apis/admissionregistration/v1/defaults.go), by
// field-tree type. A field is defaulted when absent or null (json null decodes to Go's nil pointer).
import type { TypeDefaulter } from '@kapi/apimachinery';

const TYPE = 'admissionregistration.k8s.io/v1';
const unset = (o: Record<string, unknown>, key: string) => o[key] === undefined || o[key] === null;
const setIfUnset = (o: Record<string, unknown>, key: string, value: unknown) => {
  if (unset(o, key)) o[key] = value;
};

/** SetDefaults_ValidatingWebhook: Fail, Equivalent, match-everything selectors, 10 seconds. */
const validatingWebhook: TypeDefaulter = (hook) => {
  setIfUnset(hook, 'failurePolicy', 'Fail');
  setIfUnset(hook, 'matchPolicy', 'Equivalent');
  setIfUnset(hook, 'namespaceSelector', {});
  setIfUnset(hook, 'objectSelector', {});
  setIfUnset(hook, 'timeoutSeconds', 10);
};

/** SetDefaults_MutatingWebhook: the validating webhook's defaults, and reinvocationPolicy Never. */
const mutatingWebhook: TypeDefaulter = (hook) => {
  validatingWebhook(hook);
  setIfUnset(hook, 'reinvocationPolicy', 'Never');
};

/** SetDefaults_Rule (embedded in RuleWithOperations and NamedRuleWithOperations): every scope. */
const rule: TypeDefaulter = (r) => setIfUnset(r, 'scope', '*');

/** SetDefaults_ServiceReference: port 443. */
const serviceReference: TypeDefaulter = (s) => setIfUnset(s, 'port', 443);

/** SetDefaults_ValidatingAdmissionPolicySpec: failurePolicy Fail. */
const policySpec: TypeDefaulter = (spec) => setIfUnset(spec, 'failurePolicy', 'Fail');

/** SetDefaults_MatchResources: Equivalent, match-everything selectors. */
const matchResources: TypeDefaulter = (mr) => {
  setIfUnset(mr, 'matchPolicy', 'Equivalent');
  setIfUnset(mr, 'namespaceSelector', {});
  setIfUnset(mr, 'objectSelector', {});
};

/** The group's defaulters by field-tree type (GroupPlugin.defaulters). */
export const ADMISSIONREGISTRATION_DEFAULTERS: Record<string, TypeDefaulter> = {
  [`${TYPE}/ValidatingWebhook`]: validatingWebhook,
  [`${TYPE}/MutatingWebhook`]: mutatingWebhook,
  [`${TYPE}/Rule`]: rule,
  [`${TYPE}/RuleWithOperations`]: rule,
  [`${TYPE}/NamedRuleWithOperations`]: rule,
  [`${TYPE}/ServiceReference`]: serviceReference,
  [`${TYPE}/ValidatingAdmissionPolicySpec`]: policySpec,
  [`${TYPE}/MatchResources`]: matchResources,
};
