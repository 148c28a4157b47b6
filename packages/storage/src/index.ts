// Public API of @kapi/storage. The conformance suite is the separate entry `@kapi/storage/testing`.
export type * from './types.js';
export * from './errors.js';
export * from './guaranteed-update.js';
export * from './compactor.js';
export * from './memory/index.js';
export * from './backend-checks.js';
export * from './change-event.js';
export * from './queued-watch-hub.js';
export * from './sorted-keys.js';
