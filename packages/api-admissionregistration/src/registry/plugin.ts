import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { ADMISSIONREGISTRATION_DEFAULTERS } from './defaults.js';
import type { AdmissionRegistrationOptions } from './options.js';
import { bindingPrinter, policyPrinter, webhookConfigurationPrinter } from './printers.js';
import { admissionregistrationStrategies } from './strategies.js';

/**
 * The admissionregistration.k8s.io group as a server installs it: kube's defaulting, validation and table printers
 * of webhook configurations and ValidatingAdmissionPolicies with their bindings. `options.checkExpression` adds
 * the compilation of CEL expression fields (an admission package that has a CEL compiler supplies it).
 */
export function admissionregistrationPlugin(options: AdmissionRegistrationOptions = {}): GroupPlugin {
  return {
    definition: group,
    strategies: admissionregistrationStrategies(options),
    printers: {
      ValidatingWebhookConfiguration: webhookConfigurationPrinter,
      MutatingWebhookConfiguration: webhookConfigurationPrinter,
      ValidatingAdmissionPolicy: policyPrinter,
      ValidatingAdmissionPolicyBinding: bindingPrinter,
    },
    defaulters: ADMISSIONREGISTRATION_DEFAULTERS,
  };
}

/** The group with structural validation only (no CEL compilation). */
export const plugin: GroupPlugin = admissionregistrationPlugin();
