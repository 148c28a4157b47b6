// Public API of @kapi/apimachinery.
export * from './errors/index.js';
export * from './selectors/index.js';
export * from './wire/index.js';
export * from './meta/index.js';
export * from './printing/index.js';
export * from './conversion/index.js';

export type * from './registry/types.js';
export type * from './registry/group.js';
export type * from './validation/types.js';
export * from './validation/ajv.js';
export * from './validation/lazy.js';
export { ajvClass, type AjvClass } from './validation/ajv-class.js';
export { requireLazily } from './lazy-require.js';
export { setValidatorCache, usePrebuiltValidators, validatorCacheDir } from './validation/code-cache.js';
export * from './validation/compose.js';
export * from './validation/unknown-fields.js';
export * from './validation/defaults.js';
export * from './validation/order.js';
export * from './validation/walk.js';
export { dropNullsBy } from './validation/nulls.js';

// The meta.k8s.io/v1 and apidiscovery.k8s.io/v2 types, generated from schemas/meta and schemas/apidiscovery.
export type * from './generated/types.js';
export {
  descriptor as metaDescriptor,
  fieldTree as metaFieldTree,
  validators as metaValidators,
  ajvSchemas as metaAjvSchemas,
  openapi as metaOpenAPI,
} from './generated/index.js';
export { parseGoURL, type GoURL } from './validation/go-url.js';
export { validateWebhookService, validateWebhookURL } from './validation/webhook-client.js';
