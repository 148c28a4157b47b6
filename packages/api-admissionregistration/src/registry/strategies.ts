// The kinds' strategies (kube's pkg/registry/admissionregistration/*/strategy.go): validation on create and update;
// the Store keeps a policy's status on main-resource updates and its spec on status updates, and bumps generation.
import type { Strategy } from '@kapi/apiserver';
import { validatePolicyBinding } from './binding.js';
import type { AdmissionRegistrationOptions } from './options.js';
import { policyCreateOptions, policyUpdateOptions, validatePolicy, validatePolicyStatus } from './policy.js';
import { createOptions, updateOptions, validateWebhookConfiguration } from './webhooks.js';

function webhookConfigurationStrategy(mutating: boolean, options: AdmissionRegistrationOptions): Strategy {
  const check = options.checkExpression;
  return {
    // kube sets generation 1 and bumps it when the webhooks change, though these kinds have no spec
    tracksGeneration: true,
    validate: (config) => validateWebhookConfiguration(config, mutating, createOptions(check)),
    validateUpdate: (config, old) => validateWebhookConfiguration(config, mutating, updateOptions(config, old, check)),
  };
}

/** Strategies by kind, with the caller's expression check. */
export function admissionregistrationStrategies(options: AdmissionRegistrationOptions = {}): Record<string, Strategy> {
  const check = options.checkExpression;
  return {
    ValidatingWebhookConfiguration: webhookConfigurationStrategy(false, options),
    MutatingWebhookConfiguration: webhookConfigurationStrategy(true, options),
    ValidatingAdmissionPolicy: {
      validate: (policy) => validatePolicy(policy, policyCreateOptions(check)),
      /** ValidateValidatingAdmissionPolicyUpdate, or ValidateValidatingAdmissionPolicyStatusUpdate for the status subresource. */
      validateUpdate: (policy, old, ctx) => (ctx.subresource === 'status' ? validatePolicyStatus(policy) : validatePolicy(policy, policyUpdateOptions(policy, old, check))),
    },
    ValidatingAdmissionPolicyBinding: { validate: validatePolicyBinding, validateUpdate: (binding) => validatePolicyBinding(binding) },
  };
}
