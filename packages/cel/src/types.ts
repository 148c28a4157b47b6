// Static CEL types of rule variables, derived from the structural schema as kube's SchemaDeclType derives them.
import type { CelType } from '@bufbuild/cel';
import { mapValueSchema, withTypeAndObjectMeta, type StructuralSchema } from './schema.js';

/** A static type: `dyn`, a named type (`int`, `google.protobuf.Timestamp`, `kubernetes.Quantity`...), a list, a map, or an object of a schema. */
export type StaticType =
  | { k: 'dyn'; schema?: StructuralSchema }
  | { k: 'named'; name: string; schema?: StructuralSchema }
  | { k: 'list'; elem: StaticType; schema?: StructuralSchema }
  | { k: 'map'; key: StaticType; value: StaticType; schema?: StructuralSchema }
  | { k: 'object'; schema: StructuralSchema }
  /** A named object type with declared fields and no schema (kube's `kubernetes.AdmissionRequest`, `kubernetes.variables`). */
  | { k: 'record'; name: string; fields: ReadonlyMap<string, StaticType> };

export const DYN: StaticType = { k: 'dyn' };
export const named = (name: string): StaticType => ({ k: 'named', name });
export const TIMESTAMP_NAME = 'google.protobuf.Timestamp';
export const DURATION_NAME = 'google.protobuf.Duration';
/** The keys of a map from a schema: strings whose size kube estimates as 0 (its StringType has no MaxElements). */
const MAP_KEY: StaticType = { k: 'named', name: 'string', schema: { type: 'string', maxLength: 0 } };

/** The type of values at a schema node (`root`: a resource root, where apiVersion, kind and metadata.name are added). */
export function schemaType(s: StructuralSchema | undefined, root = false): StaticType {
  if (!s) return DYN;
  if (s['x-kubernetes-int-or-string']) return { k: 'dyn', schema: s };
  if (root) s = withTypeAndObjectMeta(s);
  const schema = s;
  const scalar = (name: string): StaticType => ({ k: 'named', name, schema });
  switch (s.type) {
    case 'array':
      return s.items ? { k: 'list', elem: schemaType(s.items, !!s.items['x-kubernetes-embedded-resource']), schema } : DYN;
    case 'object': {
      const values = mapValueSchema(s);
      if (values) return { k: 'map', key: MAP_KEY, value: schemaType(values, !!values['x-kubernetes-embedded-resource']), schema };
      return { k: 'object', schema: s };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return scalar('bytes');
        case 'duration':
          return scalar(DURATION_NAME);
        case 'date':
        case 'date-time':
          return scalar(TIMESTAMP_NAME);
        default:
          return scalar('string');
      }
    case 'boolean':
      return scalar('bool');
    case 'number':
      return scalar('double');
    case 'integer':
      return scalar('int');
    default:
      return DYN;
  }
}

/** A @bufbuild/cel type as a static type. */
export function fromCelType(t: CelType): StaticType {
  switch (t.kind) {
    case 'scalar':
      return t.name === 'dyn' ? DYN : named(t.name);
    case 'list':
      return { k: 'list', elem: fromCelType(t.element) };
    case 'map':
      return { k: 'map', key: fromCelType(t.key), value: fromCelType(t.value) };
    default:
      return named(t.name);
  }
}

/** Whether a value of static type `t` may be passed where @bufbuild/cel's parameter type `p` is declared. */
export function assignable(t: StaticType, p: CelType): boolean {
  if (t.k === 'dyn' || (p.kind === 'scalar' && p.name === 'dyn')) return true;
  switch (t.k) {
    case 'named':
      return (p.kind === 'scalar' || p.kind === 'object') && p.name === t.name;
    case 'list':
      return p.kind === 'list' && assignable(t.elem, p.element);
    case 'map':
      return p.kind === 'map' && assignable(t.key, p.key) && assignable(t.value, p.value);
    case 'object':
      return p.kind === 'map';
    case 'record':
      return p.kind === 'object' && p.name === t.name;
  }
}

/** The name cel-go prints for a type in messages. */
export function typeName(t: StaticType): string {
  switch (t.k) {
    case 'dyn':
      return 'dyn';
    case 'named':
      return t.name;
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object':
      return 'object';
    case 'record':
      return t.name;
  }
}

/** Structural equality of static types (objects by schema identity). */
export function sameType(a: StaticType, b: StaticType): boolean {
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'dyn':
      return true;
    case 'named':
      return a.name === (b as typeof a).name;
    case 'list':
      return sameType(a.elem, (b as typeof a).elem);
    case 'map':
      return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case 'object':
      return a.schema === (b as typeof a).schema;
    case 'record':
      return a.name === (b as typeof a).name;
  }
}

