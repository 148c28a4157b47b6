// selectableFields (ValidateCustomResourceSelectableFields; CustomResourceFieldSelectors is GA since kube 1.32).
import type { FieldError } from '@kapi/apimachinery';
import { child, duplicate, index, invalid, required, tooMany } from './field.js';
import type { SelectableField, Validation } from './internal.js';
import { validFieldPath } from './schema/field-path.js';
import { newStructuralError } from './schema/nodes.js';

/** At most this many selectable fields per version. */
export const MAX_SELECTABLE_FIELDS = 8;

/**
 * Each selectable field is a JSON path (dots only, no array notation) to a string, boolean or integer field outside
 * metadata, named once; at most MAX_SELECTABLE_FIELDS.
 */
export function validateSelectableFields(fields: SelectableField[], schema: Validation['openAPIV3Schema'], fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = child(index(fldPath, i), 'jsonPath');
    const jsonPath = f.jsonPath ?? '';
    if (!jsonPath) {
      errs.push(required(p));
      return;
    }
    const found = validFieldPath(jsonPath, schema, false);
    if (typeof found === 'string') {
      errs.push(invalid(p, jsonPath, `is an invalid path: ${found}`));
      return;
    }
    if (found.root === 'metadata') errs.push(invalid(p, jsonPath, 'must not point to fields in metadata'));
    const type = found.schema?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(invalid(p, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(found.path)) errs.push(duplicate(p, jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(tooMany(fldPath, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/**
 * Selectable fields of one version (`perVersion`) or of all (spec-level), with kube's preconditions: a schema must be
 * present, and a schema that cannot be made structural is reported at `<path>.schema.openAPIV3Schema`.
 */
export function validateSelectableFieldsWithSchema(
  fields: SelectableField[] | undefined,
  validation: Validation | undefined,
  perVersion: boolean,
  fldPath: string,
): FieldError[] {
  if (!fields?.length) return [];
  const schema = validation?.openAPIV3Schema;
  if (perVersion ? !schema : !validation) {
    const msg = perVersion
      ? 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'
      : 'selectableFields may only be set when validations.schema is included';
    return [invalid(child(fldPath, 'selectableFields'), '', msg)];
  }
  const errs: FieldError[] = [];
  const initErr = newStructuralError(schema);
  if (initErr) errs.push(invalid(child(fldPath, 'schema.openAPIV3Schema'), '', initErr));
  errs.push(...validateSelectableFields(fields, initErr ? undefined : schema, child(fldPath, 'selectableFields')));
  return errs;
}
