import { ajvClass, type AjvClass } from './ajv-class.js';
import { fromAjv, type AjvValidateFunction } from './ajv.js';
import { readCachedValidator, standaloneValidatorCode, validatorCacheDir, validatorCacheKey, validatorLookupOn, writeCachedValidator } from './code-cache.js';
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

type Ajv = InstanceType<AjvClass>;
type Schema = Record<string, unknown>;

/**
 * An ajv instance shared by every package's validators in the process, with the schemas it holds by `$id`. Packages
 * refer to the same schemas (every kind's ObjectMeta, apps' pod templates from core): in one instance each is
 * compiled once for all of them. A sample server's first start, which compiles the validators of 13 kinds in 7
 * groups for its bootstrap objects, spent about half its validator time compiling the same shared schemas again.
 */
interface SharedAjv {
  ajv: Ajv;
  schemas: Map<string, Schema>;
}
const shared = new Map<string, SharedAjv>();

/**
 * The generated schemas are not checked again here (codegen checks each against JSON Schema's meta-schema): no
 * meta-schema to compile (`meta: false`), no schema validation on add (the first start's validators took about 45 ms
 * longer with both). The generated code is not optimized either: compiling took 15-20% less time (Pod's first
 * validator: 160-230 against 130-150 ms), checking a Pod no longer. With the cache on, ajv keeps each function's
 * source, to write it out.
 */
const newAjv = (source: boolean): Ajv =>
  new (ajvClass())({ strict: false, allErrors: true, validateFormats: false, meta: false, validateSchema: false, code: { optimize: false, source } });

/** The same schema: the same object (packages import each other's schemas), or one of the same content. */
const sameSchema = (a: Schema, b: Schema) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Validators by key, each compiled on first use (never per request) from the schemas of the packages that own
 * them: a group package ships only its own schemas and refers to those of the packages whose types it uses, so a
 * type's checks are generated once. `sets` are the package's own schemas and its dependencies'; `keys` maps each
 * validator key (`apps/v1/Deployment`) to its schema's `$id`. With `typesOnly`, only the types of values are
 * checked (what Go's decoding into typed structs checks), not required fields or enums. Validators are compiled in
 * an ajv instance shared with other packages, unless one of their schemas has an `$id` the shared instance holds with
 * other content (two versions of a package in one process): then the package gets an instance of its own.
 */
export function lazyValidators(
  sets: readonly AjvSchemas[],
  keys: Record<string, string>,
  options: { typesOnly?: boolean } = {},
): Record<string, ObjectValidator> {
  let own: SharedAjv | undefined;
  let byId: Map<string, Schema> | undefined;
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
    const reached = new Map<string, Schema | undefined>();
    const walk = (at: string) => {
      if (reached.has(at)) return;
      const schema = schemasById().get(at);
      reached.set(at, schema);
      for (const ref of refsOf(schema)) walk(resolveRef(ref, at));
    };
    walk(id);
    return reached;
  };
  /**
   * The instance to compile in, with the reached schemas in it. A schema goes to ajv when a validator first needs it,
   * with the schemas it refers to (and theirs): the first validator does not pay for adding (and ajv walking) every
   * schema of the package and its dependencies. A missing one is left to ajv, which reports the reference when it
   * compiles.
   */
  const instance = (reached: Map<string, Schema | undefined>, source: boolean): Ajv => {
    let target = own;
    if (!target) {
      const name = `${options.typesOnly === true}/${source}`;
      let common = shared.get(name);
      if (!common) shared.set(name, (common = { ajv: newAjv(source), schemas: new Map() }));
      const clash = [...reached].some(([at, schema]) => schema && common.schemas.has(at) && !sameSchema(common.schemas.get(at)!, schema));
      target = clash ? (own = { ajv: newAjv(source), schemas: new Map() }) : common;
    }
    for (const [at, schema] of reached) {
      if (!schema || target.schemas.has(at)) continue;
      target.schemas.set(at, schema);
      target.ajv.addSchema({ $id: at, ...(options.typesOnly ? typesOnly(schema) : schema) });
    }
    return target.ajv;
  };
  const compile = (id: string): AjvValidateFunction => {
    const reached = reach(id);
    // The name of the validator in the cache: everything its code is made from, each schema it reaches included.
    const key = validatorLookupOn() ? validatorCacheKey([id, options.typesOnly === true, [...reached]]) : undefined;
    const cached = key === undefined ? undefined : readCachedValidator(key);
    if (cached) return cached;
    const writing = key !== undefined && validatorCacheDir() !== undefined;
    const ajv = instance(reached, writing);
    const validate = ajv.getSchema(id) as unknown as AjvValidateFunction;
    if (writing) writeCachedValidator(key, standaloneValidatorCode(ajv, validate));
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
