export type * from './types.js';
export { kindConversion } from './kind.js';
export { conversionAnnotation } from './annotation.js';
export { applyPlan, collectPreserved, restorePreserved } from './plan.js';
