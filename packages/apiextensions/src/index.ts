export { apiextensionsPlugin, plugin } from './plugin.js';
export { customResourcePlugin, type CustomResourceOptions } from './customresource/definition.js';
export { CLEANUP_FINALIZER, type CRDValidation } from './crd/strategy.js';
export type { JSONSchemaProps } from './schema.js';
export {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatus,
  validateCustomResourceDefinitionUpdate,
  type CRDValidationOptions,
} from './validation/index.js';
