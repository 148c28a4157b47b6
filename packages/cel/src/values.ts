// JSON values (as decoded from a request) to CEL values typed by their structural schema, as kube's
// UnstructuredToVal: integers are ints, numbers doubles, date-times timestamps, objects maps of their declared
// (escaped) properties.
import type { CelInput } from '@bufbuild/cel';
import { escapeProperty } from './escape.js';
import { mapValueSchema, withTypeAndObjectMeta, type StructuralSchema } from './schema.js';
import { parseDuration, parseTimestamp } from './time.js';

/** Converts JSON values to CEL inputs, reusing the conversion of a subtree already converted for the same schema. */
export class ValueConverter {
  private readonly cache = new WeakMap<object, { schema: StructuralSchema; root: boolean; value: CelInput }>();

  /** `value` as CEL sees it at a node of `schema` (`root`: the node is a resource root, apiVersion/kind/metadata visible). */
  convert(value: unknown, schema: StructuralSchema | undefined, root = false): CelInput {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'object') return scalar(value, schema);
    const hit = this.cache.get(value);
    if (hit && hit.schema === schema && hit.root === root) return hit.value;
    const converted = this.composite(value, schema, root);
    this.cache.set(value, { schema: schema as StructuralSchema, root, value: converted });
    return converted;
  }

  private composite(value: object, schema: StructuralSchema | undefined, root: boolean): CelInput {
    if (Array.isArray(value)) {
      const items = schema?.items;
      return value.map((v) => this.convert(v, items, !!items?.['x-kubernetes-embedded-resource']));
    }
    const obj = value as Record<string, unknown>;
    // Values without a schema are not visible to rules (kube gives them no CEL type).
    if (!schema) return new Map();
    const values = mapValueSchema(schema);
    if (values) {
      const out = new Map<string, CelInput>();
      for (const [k, v] of Object.entries(obj)) out.set(k, this.convert(v, values, !!values['x-kubernetes-embedded-resource']));
      return out;
    }
    const s = root ? withTypeAndObjectMeta(schema) : schema;
    const out = new Map<string, CelInput>();
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      // Null values of declared properties are absent, as kube treats them.
      if (!Object.hasOwn(obj, k) || obj[k] === undefined || obj[k] === null) continue;
      // Properties without a type (x-kubernetes-preserve-unknown-fields alone) have no CEL type in kube.
      if (!hasCelType(prop)) continue;
      const name = escapeProperty(k);
      if (name === undefined) continue;
      out.set(name, this.convert(obj[k], prop, !!prop['x-kubernetes-embedded-resource']));
    }
    return out;
  }

}

/** Whether kube gives values of the schema a CEL type (SchemaDeclType is not nil). */
export function hasCelType(s: StructuralSchema): boolean {
  return !!s['x-kubernetes-int-or-string'] || ['array', 'object', 'string', 'boolean', 'number', 'integer'].includes(s.type ?? '');
}

function scalar(value: unknown, schema: StructuralSchema | undefined): CelInput {
  switch (typeof value) {
    case 'number':
      if (schema?.type === 'number') return value;
      return Number.isInteger(value) ? BigInt(value) : value;
    case 'bigint':
      return schema?.type === 'number' ? Number(value) : value;
    case 'boolean':
      return value;
    case 'string':
      return stringValue(value, schema);
    default:
      return null;
  }
}

function stringValue(value: string, schema: StructuralSchema | undefined): CelInput {
  if (!schema || schema.type !== 'string') return value;
  switch (schema.format) {
    case 'date-time':
      return parseTimestamp(value) ?? value;
    case 'date':
      return parseTimestamp(value, true) ?? value;
    case 'duration':
      return parseDuration(value) ?? value;
    case 'byte': {
      try {
        return new Uint8Array(Buffer.from(value, 'base64'));
      } catch {
        return value;
      }
    }
    default:
      return value;
  }
}

