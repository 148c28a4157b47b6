export { applyStrategicMergePatch, patchMetaLookup } from './apply.js';
export { StrategicMergePatchError, type StrategicMergePatchErrorCode } from './errors.js';
export type { PatchMetaLookup } from './field.js';
