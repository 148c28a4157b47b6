import Ajv from 'ajv';
import { fromAjv, type AjvValidateFunction } from './ajv.js';
import type { ObjectValidator } from './types.js';

/** The JSON Schemas (as codegen reduces them for validation: types, required, enums) of one package, by `$id`. */
export type AjvSchemas = Record<string, Record<string, unknown>>;

type AjvClass = typeof Ajv.default;
const AjvCtor: AjvClass = ((Ajv as unknown as { default?: AjvClass }).default ?? Ajv) as AjvClass;

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
  const instance = () => {
    if (!ajv) {
      ajv = new AjvCtor({ strict: false, allErrors: true, validateFormats: false });
      const added = new Set<string>();
      for (const set of sets) {
        for (const [id, schema] of Object.entries(set)) {
          if (added.has(id)) continue;
          added.add(id);
          ajv.addSchema({ $id: id, ...(options.typesOnly ? typesOnly(schema) : schema) });
        }
      }
    }
    return ajv;
  };
  const validators: Record<string, ObjectValidator> = {};
  for (const [key, id] of Object.entries(keys)) {
    let validate: ObjectValidator | undefined;
    validators[key] = (obj) => {
      validate ??= fromAjv(instance().getSchema(id) as unknown as AjvValidateFunction);
      return validate(obj);
    };
  }
  return validators;
}
