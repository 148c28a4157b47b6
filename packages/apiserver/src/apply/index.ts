// Server-side apply and managedFields: field sets, their fieldsV1 encoding, apply with conflict detection, and
// ownership tracking for ordinary writes. Pure functions over plain JSON objects.
export type { PathElement, Path, KeyField } from './path-element.js';
export { pathString, peString, serializePE, parsePE, fieldPath } from './path-element.js';
export type { FieldSet, SetNode } from './field-set.js';
export {
  EMPTY_SET, setOf, isEmpty, has, withPrefix, union, intersection, difference, recursiveDifference, leaves, setEquals, paths, setSize,
} from './field-set.js';
export { toFieldsV1, fromFieldsV1, serializeFieldsV1, FieldsV1Error } from './fields-v1.js';
export type { ApplySchema, SchemaInput } from './schema.js';
export { fieldSetOf, type FieldSetOptions } from './to-field-set.js';
export { STRIP_SET, resetFieldsFor, type ResetFieldsInput } from './reset-fields.js';
export { decodeManagedFields, encodeManagedFields, managerIdentifier, ManagedFieldsError, type ManagedSet, type Managers, type ManagerInfo, type Operation } from './managers.js';
export { ApplyConflictError, conflictMessage, conflictCauses, printManager, type ApplyConflict } from './conflicts.js';
export { ApplyInvalidError } from './invalid.js';
export { applyObject, applyAcrossVersions, type ApplyInput, type ApplyResult } from './apply.js';
export { updateManagedFields, updateAcrossVersions, BUILTIN_CREATE_BASE, type UpdateManagedFieldsInput } from './update.js';
export { MissingVersionError, type VersionConverter, type VersionSchema } from './versions.js';
