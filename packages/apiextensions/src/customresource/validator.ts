import { ajvClass, requireLazily, type FieldError, type ObjectValidator } from '@kapi/apimachinery';
import type { JSONSchemaProps } from '../schema.js';
import { RE2_PATTERN, toAjvSchema } from './ajv-schema.js';
import { STRING_FORMATS } from './formats.js';
import { structuralErrors } from './structural.js';
import { newRatchetCache, unchangedAt } from './ratchet.js';
import { schemaFieldErrors, type VerboseAjvError } from './schema-errors.js';

/**
 * The OpenAPI validation of one version of a custom resource (kube's schema validation of custom resources), with
 * kube's field paths and messages. Compiled on first use, so that installing a CRD with a large schema costs
 * nothing until its resources are written; one ajv instance per version, dropped with it when the CRD changes.
 * Embedded resources without apiVersion or kind, and duplicates in set and map lists, are reported after the schema's
 * errors. On an update (`old` given), errors ratchet as in kube 1.33: a schema error at a value the update left
 * unchanged is dropped (ratchet.ts), and duplicates in lists are only refused when the old object had none.
 */
export function customResourceValidator(schema: JSONSchemaProps): ObjectValidator {
  let validate: ((obj: unknown) => boolean) & { errors?: unknown[] | null };
  return (obj, old) => {
    validate ??= newAjv().compile(toAjvSchema(schema));
    let found = validate(obj) ? [] : ((validate.errors ?? []) as VerboseAjvError[]);
    if (old !== undefined) {
      const cache = newRatchetCache();
      found = found.filter((e) => !unchangedAt(schema, obj, old, e.instancePath, cache));
    }
    const errs = schemaFieldErrors(found, obj);
    // Then, as kube's customResourceStrategy.Validate: embedded resources' apiVersion and kind, unique items of set
    // lists and unique keys of map lists (the latter, on update, only if the old object kept them unique).
    const lists = old === undefined || structuralErrors(schema, old, { embedded: false }).length === 0;
    return [...errs, ...structuralErrors(schema, obj, { lists })];
  };
}

/**
 * Validates values against nodes of a schema (a CRD's defaults, each against the node that declares it), with one
 * ajv instance for all of them: errors as for custom resources, at paths below `path`.
 */
export function schemaNodeChecker(): (value: unknown, node: JSONSchemaProps, path: string) => FieldError[] {
  const ajv = newAjv();
  return (value, node, path) => {
    const validate = ajv.compile(toAjvSchema(node, false));
    if (validate(value)) return [];
    return schemaFieldErrors((validate.errors ?? []) as VerboseAjvError[], value).map((e) => ({ ...e, field: e.field ? `${path}.${e.field}` : path }));
  };
}

/** RE2JS (260 KB of code), loaded with the first CRD schema that has a pattern, not by every server's start. */
const re2js = requireLazily<typeof import('re2js')>(import.meta.url, 're2js');

/**
 * `pattern` as kube matches it: Go's RE2 syntax, in linear time (RE2JS), so that no value a client sends can make a
 * CRD's pattern backtrack for seconds, as a JavaScript RegExp would on `^(a+)+$`. A pattern RE2 cannot compile
 * (the CRD's validation refuses those) matches nothing.
 */
function re2Pattern(pattern: string) {
  let matches: (value: string) => boolean;
  try {
    const re = re2js().RE2JS.compile(pattern);
    matches = (value) => re.matcher(value).find();
  } catch {
    matches = () => false;
  }
  return (data: unknown) => typeof data !== 'string' || matches(data);
}

function newAjv() {
  const ajv = new (ajvClass())({ strict: false, allErrors: true, verbose: true, logger: false });
  ajv.addKeyword({ keyword: RE2_PATTERN, schemaType: 'string', compile: re2Pattern });
  for (const [name, check] of Object.entries(STRING_FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  return ajv;
}
