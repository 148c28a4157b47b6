// The core group package. Everything under ./generated comes from schemas/core/; the hand-written behaviour of
// its kinds (strategies, table printers, defaulters, subresources) is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { createCorePlugin, plugin, type CorePluginOptions } from './registry/plugin.js';
export { capabilities, setupCapabilities, type Capabilities } from './registry/capabilities.js';
export type { ApiServerEndpoint } from './registry/service/index.js';
export {
  DEFAULT_COMPONENT_PROBES,
  STORAGE_COMPONENT,
  type ComponentProbe,
  type ComponentStatusOptions,
} from './registry/component-status/index.js';
export { parseCidr, parsePortRange } from './registry/service/cidr.js';
export { CORE_DEFAULTERS, imageTag } from './registry/defaulters.js';
export { isConfigMapKey, MAX_DATA_BYTES } from './registry/config-data.js';
export { podTemplateCells } from './registry/templates.js';
export { selectorMismatch, validatePodSpec, validatePodTemplateSpec, validateRunningPodTemplate } from './registry/pod-validation.js';
export { podTemplateWarnings, podWarnings } from './registry/pod-warnings.js';
export { EVENT_FIELD_LABELS } from './registry/field-labels.js';
export { defaultTolerationSecondsAdmission, TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, type DefaultTolerationSecondsOptions } from './registry/default-toleration-seconds.js';
export { claimResizeAdmission } from './registry/claim-resize.js';
export { parseResourceQuotaConfiguration, type LimitedResource, type ResourceQuotaConfiguration } from './registry/quota/configuration.js';
export { JWKS_PATH, keyId, OPENID_CONFIGURATION_PATH, signingKey, verificationKeys, type ServiceAccountTokenOptions } from './registry/service-accounts/index.js';
