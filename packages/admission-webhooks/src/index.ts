/**
 * @kapi/admission-webhooks: kube's dynamic admission for Kapi servers — admissionregistration.k8s.io/v1
 * MutatingWebhookConfiguration, ValidatingWebhookConfiguration, ValidatingAdmissionPolicy and its bindings.
 * @packageDocumentation
 */
export { admissionWebhooksPlugin, plugin, type AdmissionWebhooksOptions } from './plugin.js';
export type { AdmissionCelInput, CompiledCondition, ConditionCompiler } from './conditions.js';
export * from './match/index.js';
