// kube's validateCustomResourceDefinitionValidation: one CustomResourceValidation (a version's `schema`, or the
// spec-level one every version shares), in kube's order: root rules, structural schema, defaults, then the OpenAPI
// rules of every node (with CEL compilation when all before passed).
import type { FieldError } from '@kapi/apimachinery';
import { child, forbidden, invalid } from '../field.js';
import type { Validation } from '../internal.js';
import { isObject } from '../json.js';
import type { CRDValidationOptions, JSONSchema } from '../types.js';
import { validateDefaults } from './defaults.js';
import { isSet, newStructuralError } from './nodes.js';
import { validateOpenAPISchema, type SchemaOptions } from './openapi.js';
import { validateStructural } from './structural.js';

/** The options kube derives per request (all true on create; ratcheted by the old object on update). */
export interface ValidationOptions extends SchemaOptions {
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
}

// Internal JSONSchemaProps fields in declaration order, with their JSON names: kube walks them by reflection.
const ROOT_FIELDS: [string, string][] = [
  ['ID', 'id'], ['Schema', '$schema'], ['Ref', '$ref'], ['Description', 'description'], ['Type', 'type'],
  ['Nullable', 'nullable'], ['Format', 'format'], ['Title', 'title'], ['Default', 'default'], ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'], ['Minimum', 'minimum'], ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'], ['MinLength', 'minLength'], ['Pattern', 'pattern'], ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'], ['UniqueItems', 'uniqueItems'], ['MultipleOf', 'multipleOf'], ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'], ['MinProperties', 'minProperties'], ['Required', 'required'], ['Items', 'items'],
  ['AllOf', 'allOf'], ['OneOf', 'oneOf'], ['AnyOf', 'anyOf'], ['Not', 'not'], ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'], ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'], ['AdditionalItems', 'additionalItems'], ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'], ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'], ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'], ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'], ['XMapType', 'x-kubernetes-map-type'], ['XValidations', 'x-kubernetes-validations'],
];

/** The root fields kube allows when the status subresource is enabled (status is extracted as properties[status]). */
export const ALLOWED_AT_ROOT_WITH_STATUS = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength',
  'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties',
  'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations',
];

function statusRootErrors(schema: JSONSchema, fldPath: string): FieldError[] {
  for (const [goName, jsonName] of ROOT_FIELDS) {
    if (!isSet(schema, jsonName)) continue;
    if (goName === 'Type') {
      if (schema.type !== 'object') {
        return [invalid(child(fldPath, 'openAPIV3Schema.type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT_WITH_STATUS.includes(goName)) {
      return [invalid(child(fldPath, 'openAPIV3Schema'), schema, `only [${ALLOWED_AT_ROOT_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** Validates one CustomResourceValidation at fldPath (`spec.validation` or `spec.versions[i].schema`). */
export function validateCustomResourceValidation(
  validation: Validation | undefined,
  statusEnabled: boolean,
  opts: ValidationOptions,
  hooks: CRDValidationOptions,
  fldPath: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!isObject(schema)) return [];
  const errs: FieldError[] = [];
  const schemaPath = child(fldPath, 'openAPIV3Schema');
  if (statusEnabled) errs.push(...statusRootErrors(schema, fldPath));
  if (schema.nullable) errs.push(forbidden(child(fldPath, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));

  let celEnabled = false;
  const initErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    const initErr = newStructuralError(schema);
    if (initErr) {
      // shown only when nothing else is wrong: the OpenAPI rules below report the same problems better
      initErrs.push(invalid(schemaPath, '', initErr));
    } else {
      const structuralErrs = validateStructural(schemaPath, schema);
      if (structuralErrs.length > 0) errs.push(...structuralErrs);
      else {
        const defaultErrs = validateDefaults(schemaPath, schema, opts.requirePrunedDefaults, hooks);
        if (defaultErrs.length > 0) errs.push(...defaultErrs);
        else celEnabled = true;
      }
    }
  }
  errs.push(...validateOpenAPISchema(schema, schemaPath, { opts, celEnabled, hooks }));
  if (errs.length === 0) errs.push(...initErrs);
  return errs;
}
