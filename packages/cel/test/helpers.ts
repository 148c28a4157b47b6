// Small schemas and a shorthand to compile and validate in unit tests.
import { formatFieldError } from '@kapi/apimachinery';
import { compileSchemaRules, type CompileSchemaOptions, type ValidateOptions } from '../src/index.js';

/** An object schema with the given properties and rules. */
export const object = (properties: Record<string, unknown>, rules: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...(rules.length ? { 'x-kubernetes-validations': rules } : {}),
  ...extra,
});

/** A resource schema whose `spec` is the given schema. */
export const resource = (spec: unknown) => object({ spec });

/** Compiles `schema` (failing on compile errors) and returns a validate function giving kube's error texts. */
export function validatorOf(schema: object, options: CompileSchemaOptions = {}) {
  const { validator, errors } = compileSchemaRules(schema, options);
  if (errors.length) throw new Error(errors.map(formatFieldError).join('\n'));
  return (obj: unknown, old?: unknown, opts?: ValidateOptions) => validator.validate(obj, old, opts).map(formatFieldError);
}

/** The compile errors of `schema` as kube's texts. */
export const compileErrors = (schema: object, options: CompileSchemaOptions = {}) =>
  compileSchemaRules(schema, options).errors.map(formatFieldError);
