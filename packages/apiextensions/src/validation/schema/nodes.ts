// Reading JSON schema nodes as kube's Go types hold them: which fields are set (a pointer or slice is set when
// present, a plain string or bool only when non-zero), and the children the structural schema has.
import { has, isObject } from '../json.js';
import type { JSONSchema } from '../types.js';

// Non-pointer scalar fields of JSONSchemaProps: "" and false are unset.
const PLAIN_SCALARS = new Set([
  'id', '$schema', 'description', 'type', 'format', 'title', 'exclusiveMaximum', 'exclusiveMinimum', 'pattern',
  'uniqueItems', 'nullable', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
]);

/** Whether the internal JSONSchemaProps field is non-zero (reflect.DeepEqual against its zero value fails). */
export function isSet(s: JSONSchema, k: string): boolean {
  const v = (s as Record<string, unknown>)[k];
  if (!has(v)) return false;
  return !(PLAIN_SCALARS.has(k) && (v === '' || v === false || v === 0));
}

/**
 * Whether the field is non-zero in the structural schema kube builds from the node (NewStructural, or its nested
 * value validation when `nested`): externalDocs and example are not kept, empty enum/allOf/anyOf/oneOf become nil,
 * `properties: {}` is nil at structural level, `additionalProperties: false` is nil in nested value validation.
 */
export function isSetStructurally(s: JSONSchema, k: string, nested: boolean): boolean {
  if (!isSet(s, k)) return false;
  const v = (s as Record<string, unknown>)[k];
  switch (k) {
    case 'externalDocs':
    case 'example':
      return false;
    case 'enum':
    case 'allOf':
    case 'oneOf':
    case 'anyOf':
      return Array.isArray(v) && v.length > 0;
    case 'properties':
      return nested || (isObject(v) && Object.keys(v).length > 0);
    case 'additionalProperties':
      return nested ? v !== false : true;
    default:
      return true;
  }
}

/** The keys of a node set in the structural sense (see isSetStructurally). */
export const structuralKeys = (s: JSONSchema, nested: boolean): string[] =>
  Object.keys(s).filter((k) => isSetStructurally(s, k, nested));

/** items as one schema (undefined when absent or an array). */
export const itemsSchema = (s: JSONSchema): JSONSchema | undefined => (isObject(s.items) ? (s.items as JSONSchema) : undefined);

/** The structural properties: none when `properties` is empty. */
export const properties = (s: JSONSchema): [string, JSONSchema][] => (isObject(s.properties) ? Object.entries(s.properties) : []);

/** additionalProperties as a schema (undefined when absent or a boolean). */
export const additionalPropertiesSchema = (s: JSONSchema): JSONSchema | undefined =>
  isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchema) : undefined;

/** Whether the structural schema has additionalProperties (any value, `false` included: kube's StructuralOrBool). */
export const hasAdditionalProperties = (s: JSONSchema): boolean => has(s.additionalProperties);

export const preservesUnknownFields = (s: JSONSchema): boolean => s['x-kubernetes-preserve-unknown-fields'] === true;
export const isEmbeddedResource = (s: JSONSchema): boolean => s['x-kubernetes-embedded-resource'] === true;
export const isIntOrString = (s: JSONSchema): boolean => s['x-kubernetes-int-or-string'] === true;

/**
 * NewStructural's error for a node it cannot convert (unsupported fields, items as an array,
 * x-kubernetes-preserve-unknown-fields false), or undefined. Walks the tree in kube's order.
 */
export function newStructuralError(s: JSONSchema | undefined, nested = false): string | undefined {
  if (!s) return undefined;
  const unsupported = unsupportedFieldError(s);
  if (unsupported) return unsupported;
  if (has(s.not)) {
    const e = newStructuralError(s.not, true);
    if (e) return e;
  }
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const x of s[junctor] ?? []) {
      const e = newStructuralError(x, true);
      if (e) return e;
    }
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (has(s.items)) {
    if (Array.isArray(s.items)) {
      if (s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
    } else {
      const e = newStructuralError(s.items, nested);
      if (e) return e;
    }
  }
  for (const [, p] of nested ? Object.entries(s.properties ?? {}) : properties(s)) {
    const e = newStructuralError(p, nested);
    if (e) return e;
  }
  return newStructuralError(additionalPropertiesSchema(s), nested);
}

function unsupportedFieldError(s: JSONSchema): string | undefined {
  const size = (v: unknown): number => (isObject(v) ? Object.keys(v).length : 0);
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (size(s.patternProperties) > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (size(s.dependencies) > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (has(s.additionalItems)) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (size(s.definitions) > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/** validation.SchemaHas: whether pred holds for the node or any schema below it (every kind of child). */
export function schemaHas(s: JSONSchema | undefined, pred: (s: JSONSchema) => boolean): boolean {
  if (!isObject(s)) return false;
  return pred(s) || childSchemas(s).some((c) => schemaHas(c, pred));
}

/** The schemas right below a node, of every kind: items, junctors, not, properties, additional and pattern properties, additionalItems, definitions, dependencies. */
export function childSchemas(s: JSONSchema): JSONSchema[] {
  const children: unknown[] = [];
  if (Array.isArray(s.items)) children.push(...s.items);
  else children.push(s.items);
  children.push(...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.not);
  children.push(...Object.values(s.properties ?? {}), s.additionalProperties);
  children.push(...Object.values(s.patternProperties ?? {}), s.additionalItems, ...Object.values(s.definitions ?? {}));
  children.push(...Object.values(s.dependencies ?? {}));
  return children.filter((c): c is JSONSchema => isObject(c));
}
