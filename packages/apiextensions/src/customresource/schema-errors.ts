import { fieldNotSupported, fieldPath, type FieldError } from '@kapi/apimachinery';
import { RE2_PATTERN } from './ajv-schema.js';

/** An ajv error as ajv reports it with `verbose` (the failing value in `data`, its schema in `parentSchema`). */
export interface VerboseAjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  data?: unknown;
  parentSchema?: Record<string, unknown>;
}

/** go-openapi's type name of a JSON value, as its "must be of type" errors print it. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const isIntOrString = (schema: Record<string, unknown> | undefined) =>
  Array.isArray(schema?.anyOf) && (schema!.anyOf as { type?: string }[]).map((s) => s.type).join() === 'integer,string';

/**
 * One ajv error as kube reports the go-openapi error of the same check of a custom resource
 * (apiextensions-apiserver's kubeOpenAPIResultToFieldErrors): Required, Unsupported value, Too long, Too many, and
 * `<path> in body should ...` details for the rest. Undefined for what the aggregate error of a branch reports.
 */
function toFieldError(e: VerboseAjvError, root: unknown): FieldError | undefined {
  const path = fieldPath(e.instancePath, root);
  // go-openapi names a value by its path from the validated root; the root itself has no name.
  const name = path;
  const value = e.data;
  const p = e.params;
  switch (e.keyword) {
    case 'required': {
      const child = String(p.missingProperty);
      return { type: 'FieldValueRequired', field: path ? `${path}.${child}` : child, message: '' };
    }
    case 'enum':
      return fieldNotSupported(path, value, (p.allowedValues as unknown[]).filter((v) => v !== null).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
    case 'maxLength':
      return { type: 'FieldValueTooLong', field: path, message: `may not be more than ${p.limit} ${p.limit === 1 ? 'byte' : 'bytes'}` };
    case 'maxItems':
      return { type: 'FieldValueTooMany', field: path, badValue: (value as unknown[]).length, message: `must have at most ${p.limit} items` };
    case 'maxProperties':
      return { type: 'FieldValueTooMany', field: path, badValue: Object.keys(value as object).length, message: `must have at most ${p.limit} items` };
    case 'type':
      return { type: 'FieldValueTypeInvalid', field: path, badValue: typeName(value), message: `${name} in body must be of type ${[p.type].flat().filter((t) => t !== 'null').join(',')}: "${typeName(value)}"` };
    case 'format':
      return { type: 'FieldValueTypeInvalid', field: path, badValue: value, message: `${name} in body must be of type ${p.format}: ${JSON.stringify(value)}` };
    case 'anyOf':
      if (isIntOrString(e.parentSchema)) return { type: 'FieldValueTypeInvalid', field: path, badValue: typeName(value), message: `${name} in body must be of type integer,string: "${typeName(value)}"` };
      return invalid(path, value, `${name} in body must validate at least one schema (anyOf)`);
    case 'oneOf':
      return invalid(path, value, `${name} in body must validate one and only one schema (oneOf)`);
    case 'not':
      return invalid(path, value, `${name} in body must not validate the schema (not)`);
    case RE2_PATTERN:
      return invalid(path, value, `${name} in body should match '${String(e.parentSchema?.[RE2_PATTERN])}'`);
  }
  const detail = DETAILS[e.keyword]?.(p);
  return detail === undefined ? invalid(path, value, `${name} in body ${e.keyword}`) : invalid(path, value, `${name} in body ${detail}`);
}

const invalid = (field: string, badValue: unknown, message: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, message });

/** go-openapi's wording of the other checks, after `<path> in body `. */
const DETAILS: Record<string, (p: Record<string, unknown>) => string> = {
  minLength: (p) => `should be at least ${p.limit} chars long`,
  minimum: (p) => `should be greater than or equal to ${p.limit}`,
  exclusiveMinimum: (p) => `should be greater than ${p.limit}`,
  maximum: (p) => `should be less than or equal to ${p.limit}`,
  exclusiveMaximum: (p) => `should be less than ${p.limit}`,
  multipleOf: (p) => `should be a multiple of ${p.multipleOf}`,
  minItems: (p) => `should have at least ${p.limit} items`,
  uniqueItems: () => `shouldn't contain duplicates`,
  minProperties: (p) => `should have at least ${p.limit} properties`,
};

/** Whether an error comes from inside an anyOf/oneOf/not branch: the branch's own error says it once. */
const inBranch = (schemaPath: string) => /\/(anyOf|oneOf|not)\//.test(schemaPath);

/** kube's field errors for ajv's errors of one object, in order, each path and kind once. */
export function schemaFieldErrors(errors: readonly VerboseAjvError[], root: unknown): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (inBranch(e.schemaPath)) continue;
    const error = toFieldError(e, root);
    if (!error) continue;
    const key = `${error.type}\0${error.field}\0${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}
