// Size bounds of schema values as kube's SchemaDeclType computes them (MaxElements, MinSerializedSize), for the
// estimated cost of rules: from maxItems/maxProperties/maxLength, else from the largest request (3 MiB).
import { mapValueSchema, type StructuralSchema } from './schema.js';

/** kube's MaxRequestSizeBytes for CEL estimates. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

const minCache = new WeakMap<StructuralSchema, number>();

/** The smallest size in bytes a value of the schema has in JSON (kube's MinSerializedSize). */
export function minSerializedSize(s: StructuralSchema): number {
  const hit = minCache.get(s);
  if (hit !== undefined) return hit;
  let size: number;
  if (s['x-kubernetes-int-or-string']) size = 1;
  else
    switch (s.type) {
      case 'array':
        size = 2;
        break;
      case 'object':
        if (mapValueSchema(s)) size = 2;
        else {
          size = 2;
          const required = new Set(s.required ?? []);
          for (const [name, prop] of Object.entries(s.properties ?? {})) {
            if (required.has(name) && prop.default === undefined) size += name.length + minSerializedSize(prop) + 4;
          }
        }
        break;
      case 'string':
        size = s.format === 'duration' ? 3 : s.format === 'date' ? 12 : s.format === 'date-time' ? 21 : 2;
        break;
      case 'boolean':
        size = 4;
        break;
      default:
        size = 1;
    }
  minCache.set(s, size);
  return size;
}

function maxStringLength(s: StructuralSchema): number {
  switch (s.format) {
    case 'duration':
    case 'date-time':
      return 32;
    case 'date':
      return 12;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** The largest number of elements (characters, items, properties) of a value of the schema (kube's MaxElements). */
export function maxElements(s: StructuralSchema): number {
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.type) {
    case 'array':
      if (s.maxItems !== undefined) return Math.max(0, s.maxItems);
      return s.items ? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(s.items) + 1)) : 0;
    case 'object': {
      const values = mapValueSchema(s);
      if (!values) return 0;
      if (s.maxProperties !== undefined) return Math.max(0, s.maxProperties);
      return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(values) + 6));
    }
    case 'string':
      if (s.format === 'byte') return s.maxLength !== undefined ? Math.max(0, s.maxLength) : maxStringLength(s);
      if (s.format === 'duration' || s.format === 'date' || s.format === 'date-time') return maxStringLength(s);
      if (s.maxLength !== undefined) return Math.max(0, s.maxLength) * 4;
      if (s.enum?.length) return Math.max(...s.enum.map((e) => (typeof e === 'string' ? e.length : 0)));
      return maxStringLength(s);
    default:
      return 0;
  }
}

/**
 * How many times a value at a schema node can occur in one object (kube's CELSchemaContext.MaxCardinality):
 * undefined when some enclosing list or map has no maxItems/maxProperties.
 */
export function childCardinality(parentCardinality: number | undefined, parent: StructuralSchema, viaElements: boolean): number | undefined {
  if (parentCardinality === undefined) return undefined;
  if (!viaElements) return parentCardinality;
  const max = parent.type === 'array' ? parent.maxItems : parent.maxProperties;
  return max === undefined ? undefined : parentCardinality * Math.max(0, max);
}

/** kube's estimate of how often a rule on a node of an unbounded list or map can run. */
export function unboundedCardinality(s: StructuralSchema): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(s) + 1));
}
