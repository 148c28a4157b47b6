export { withTracing, spanName } from './filter.js';
export { tracedStorage } from './storage.js';
export { TRACER_NAME } from './context.js';
