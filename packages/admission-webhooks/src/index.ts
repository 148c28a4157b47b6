/**
 * @kapi/admission-webhooks: kube's dynamic admission for Kapi servers — admissionregistration.k8s.io/v1
 * MutatingWebhookConfiguration, ValidatingWebhookConfiguration, ValidatingAdmissionPolicy and its bindings.
 * @packageDocumentation
 */
export { admissionWebhooksPlugin, plugin, webhookAdmission, type AdmissionWebhooksOptions } from './plugin.js';
export { policyAdmission } from './policy/server.js';
export { celCheckExpression } from './cel-check.js';
export { celConditionCompiler } from './cel-conditions.js';
export type { AdmissionCelInput, CompiledCondition, ConditionCompiler } from './conditions.js';
export * from './match/index.js';
export * from './policy/index.js';
