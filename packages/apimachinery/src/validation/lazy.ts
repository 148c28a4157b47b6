import { ajvClass, type AjvClass } from './ajv-class.js';
import { fromAjv, type AjvValidateFunction } from './ajv.js';
import { readCachedValidator, standaloneValidatorCode, validatorCacheDir, validatorCacheKey, writeCachedValidator } from './code-cache.js';
import type { ObjectValidator } from './types.js';

/** The JSON Schemas (as codegen reduces them for validation: types, required, enums) of one package, by `$id`. */
export type AjvSchemas = Record<string, Record<string, unknown>>;

/** A schema with only its type checks: `required` and `enum` dropped, at every level. */
function typesOnly(schema: unknown): Record<string, unknown> {
  if (Array.isArray(schema)) return schema.map(typesOnly) as unknown as Record<string, unknown>;
  if (!schema || typeof schema !== 'object') return schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'required' || k === 'enum') continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, c]) => [p, typesOnly(c)])) : typesOnly(v);
  }
  return out;
}

/**
 * Validators by key, each compiled on first use (never per request) from the schemas of the packages that own
 * them: a group package ships only its own schemas and refers to those of the packages whose types it uses, so a
 * type's checks are generated once. `sets` are the package's own schemas and its dependencies'; `keys` maps each
 * validator key (`apps/v1/Deployment`) to its schema's `$id`. With `typesOnly`, only the types of values are
 * checked (what Go's decoding into typed structs checks), not required fields or enums.
 */
export function lazyValidators(
  sets: readonly AjvSchemas[],
  keys: Record<string, string>,
  options: { typesOnly?: boolean } = {},
): Record<string, ObjectValidator> {
  let ajv: InstanceType<AjvClass> | undefined;
  let byId: Map<string, Record<string, unknown>> | undefined;
  const schemasById = () => {
    if (!byId) {
      byId = new Map();
      // The first set holding an id owns it (a package's own schemas come before its dependencies').
      for (const set of sets) for (const [schemaId, schema] of Object.entries(set)) if (!byId.has(schemaId)) byId.set(schemaId, schema);
    }
    return byId;
  };
  /** The schemas `id`'s validator is made from: its own and every one it reaches through `$ref` (undefined: missing). */
  const reach = (id: string) => {
    const reached = new Map<string, Record<string, unknown> | undefined>();
    const walk = (at: string) => {
      if (reached.has(at)) return;
      const schema = schemasById().get(at);
      reached.set(at, schema);
      for (const ref of refsOf(schema)) walk(resolveRef(ref, at));
    };
    walk(id);
    return reached;
  };
  const added = new Set<string>();
  // A schema goes to ajv when a validator first needs it, with the schemas it refers to (and theirs): the first
  // validator of a package does not pay for adding (and ajv walking) every schema of the package and its dependencies.
  // A missing one is left to ajv, which reports the reference when it compiles.
  const add = (reached: Map<string, Record<string, unknown> | undefined>) => {
    for (const [at, schema] of reached) {
      if (!schema || added.has(at)) continue;
      added.add(at);
      ajv!.addSchema({ $id: at, ...(options.typesOnly ? typesOnly(schema) : schema) });
    }
  };
  const compile = (id: string): AjvValidateFunction => {
    const reached = reach(id);
    // The name of the validator in the cache: everything its code is made from, each schema it reaches included.
    const key = validatorCacheDir() === undefined ? undefined : validatorCacheKey([id, options.typesOnly === true, [...reached]]);
    const cached = key === undefined ? undefined : readCachedValidator(key);
    if (cached) return cached;
    // The schemas are generated, and codegen checks each against JSON Schema's meta-schema; they are not checked
    // again here: no meta-schema to compile (`meta: false`), no schema validation on add (the first start's
    // validators took about 45 ms longer with both). The generated code is not optimized either: compiling took
    // 15-20% less time (Pod's first validator: 160-230 against 130-150 ms), checking a Pod no longer. With the
    // cache on, ajv keeps each function's source, to write it out.
    ajv ??= new (ajvClass())({
      strict: false,
      allErrors: true,
      validateFormats: false,
      meta: false,
      validateSchema: false,
      code: { optimize: false, source: key !== undefined },
    });
    add(reached);
    const validate = ajv.getSchema(id) as unknown as AjvValidateFunction;
    if (key !== undefined && ajv.opts.code.source) writeCachedValidator(key, standaloneValidatorCode(ajv, validate));
    return validate;
  };
  const validators: Record<string, ObjectValidator> = {};
  for (const [key, id] of Object.entries(keys)) {
    let validate: ObjectValidator | undefined;
    validators[key] = (obj) => {
      validate ??= fromAjv(compile(id));
      return validate(obj);
    };
  }
  return validators;
}

/** The `$id` a `$ref` met in the schema `base` points to, without its fragment. */
function resolveRef(ref: string, base: string): string {
  return new URL(ref, base).href.replace(/#.*$/, '');
}

/** The `$ref`s anywhere in a schema. */
function refsOf(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else if (k === 'properties') for (const child of Object.values(v as object)) refsOf(child, out);
      else refsOf(v, out);
    }
  }
  return out;
}
