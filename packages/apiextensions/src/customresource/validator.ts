import Ajv from 'ajv';
import type { ObjectValidator } from '@kapi/apimachinery';
import type { JSONSchemaProps } from '../schema.js';
import { toAjvSchema } from './ajv-schema.js';
import { STRING_FORMATS } from './formats.js';
import { schemaFieldErrors, type VerboseAjvError } from './schema-errors.js';

type AjvClass = typeof Ajv.default;
const AjvCtor: AjvClass = ((Ajv as unknown as { default?: AjvClass }).default ?? Ajv) as AjvClass;

/**
 * The OpenAPI validation of one version of a custom resource (kube's schema validation of custom resources), with
 * kube's field paths and messages. Compiled on first use, so that installing a CRD with a large schema costs
 * nothing until its resources are written; one ajv instance per version, dropped with it when the CRD changes.
 */
export function customResourceValidator(schema: JSONSchemaProps): ObjectValidator {
  let validate: ((obj: unknown) => boolean) & { errors?: unknown[] | null };
  return (obj) => {
    validate ??= compile(schema);
    return validate(obj) ? [] : schemaFieldErrors((validate.errors ?? []) as VerboseAjvError[], obj);
  };
}

function compile(schema: JSONSchemaProps) {
  const ajv = new AjvCtor({ strict: false, allErrors: true, verbose: true, logger: false, unicodeRegExp: false });
  for (const [name, check] of Object.entries(STRING_FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  return ajv.compile(toAjvSchema(schema));
}
