// Per-message plans derived once from protobufjs reflection: the field facts the encoder and decoder need.
import { protobufLibrary } from './protobuf-library.js';
import type { Field, MapField, Type } from 'protobufjs';

/** Types with a special JSON form (apimachinery's, and apiextensions' free-form `JSON`), by full Protobuf name. */
export const SPECIAL_TYPES = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'Time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'MicroTime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'Duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'FieldsV1',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'Quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'IntOrString',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'RawExtension',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON': 'JSON',
} as const;

export type SpecialType = (typeof SPECIAL_TYPES)[keyof typeof SPECIAL_TYPES];

/** What a field holds: a scalar (by Protobuf type name), a message (by plan), or a special apimachinery type. */
export type ValueKind =
  | { kind: 'scalar'; type: string }
  | { kind: 'enum' }
  | { kind: 'message'; plan: () => MessagePlan }
  | { kind: 'special'; special: SpecialType };

export interface FieldPlan {
  /** JSON property name (the Protobuf field name, or its `kapi_json_name` option). */
  name: string;
  id: number;
  value: ValueKind;
  repeated: boolean;
  packed: boolean;
  /** Key scalar type of a map field. */
  mapKey?: string;
  /** A Go-embedded struct whose fields are flattened into the parent JSON object. */
  inline: boolean;
  /**
   * A Go non-pointer scalar tagged omitempty (option `kapi_omit_zero`): Go always writes it on the wire (its zero
   * value when unset) and leaves it out of JSON when zero.
   */
  omitZero: boolean;
}

/** The JSON types a union's alternatives may have; each alternative is the union message's field of that name. */
export const ONE_OF_KINDS = ['boolean', 'object', 'array'] as const;
export type OneOfKind = (typeof ONE_OF_KINDS)[number];

/** The fields of a union message, by the JSON type of the value each one carries. */
export type OneOfPlan = { [K in OneOfKind]?: FieldPlan };

export interface MessagePlan {
  fullName: string;
  /**
   * A list-wrapper message (option `kapi_list_wrapper`, Go `type ExtraValue []string`): its JSON form is the array
   * held by its one repeated field, named here.
   */
  listWrapperField?: string;
  /**
   * A union message (option `kapi_one_of`, Go types with their own JSON marshalling such as apiextensions'
   * JSONSchemaPropsOrBool): its JSON form is the value of one of its fields, told apart by JSON type.
   */
  oneOf?: OneOfPlan;
  /** Fields in field-number order, the order Go writes them. */
  byNumber: FieldPlan[];
  /** Fields in declaration order, the order of kube's JSON. */
  declared: FieldPlan[];
  byId: Map<number, FieldPlan>;
}

const stripDot = (name: string): string => (name.startsWith('.') ? name.slice(1) : name);

/** Builds plans lazily from a protobufjs root; one planner per codec. */
export function createPlanner(lookup: (name: string) => Type): (name: string) => MessagePlan {
  const plans = new Map<string, MessagePlan>();

  const valueOf = (field: Field | MapField): ValueKind => {
    const resolved = field.resolvedType;
    if (resolved instanceof protobufLibrary().Enum) return { kind: 'enum' };
    if (resolved instanceof protobufLibrary().Type) {
      const fullName = stripDot(resolved.fullName);
      const special = (SPECIAL_TYPES as Record<string, SpecialType>)[fullName];
      if (special) return { kind: 'special', special };
      return { kind: 'message', plan: () => planOf(fullName) };
    }
    return { kind: 'scalar', type: field.type };
  };

  function planOf(name: string): MessagePlan {
    const key = stripDot(name);
    const cached = plans.get(key);
    if (cached) return cached;
    const type = lookup(key);
    const declared = type.fieldsArray.map((field): FieldPlan => {
      const map = field instanceof protobufLibrary().MapField;
      const jsonName: unknown = field.options?.kapi_json_name;
      return {
        name: typeof jsonName === 'string' ? jsonName : field.name,
        id: field.id,
        value: valueOf(field),
        repeated: !map && field.repeated,
        packed: field.options?.packed === true,
        mapKey: map ? (field as MapField).keyType : undefined,
        inline: field.options?.kapi_inline === true,
        omitZero: field.options?.kapi_omit_zero === true && !map && !field.repeated && !(field.resolvedType instanceof protobufLibrary().Type),
      };
    });
    const plan: MessagePlan = {
      fullName: key,
      listWrapperField: type.options?.kapi_list_wrapper === true ? listWrapperField(type, key) : undefined,
      oneOf: type.options?.kapi_one_of === true ? oneOfPlan(declared, key) : undefined,
      declared,
      byNumber: [...declared].sort((a, b) => a.id - b.id),
      byId: new Map(declared.map((f) => [f.id, f])),
    };
    plans.set(key, plan);
    return plan;
  }

  return planOf;
}

function listWrapperField(type: Type, name: string): string {
  const [field, ...rest] = type.fieldsArray;
  if (!field || rest.length > 0 || !field.repeated) throw new Error(`${name}: a list wrapper must have exactly one repeated field`);
  return field.name;
}

// A union's fields are named after the JSON type they carry: `boolean` a bool, `object` one message (or special or
// map), `array` a repeated field.
function oneOfPlan(fields: FieldPlan[], name: string): OneOfPlan {
  const plan: OneOfPlan = {};
  for (const f of fields) {
    const kind = (ONE_OF_KINDS as readonly string[]).includes(f.name) ? (f.name as OneOfKind) : undefined;
    const fits =
      kind === 'boolean'
        ? !f.repeated && f.mapKey === undefined && f.value.kind === 'scalar' && f.value.type === 'bool'
        : kind === 'object'
          ? !f.repeated && (f.mapKey !== undefined || f.value.kind === 'message' || f.value.kind === 'special')
          : kind === 'array' && f.repeated;
    if (!kind || !fits || f.inline) {
      throw new Error(`${name}: a union's fields are a bool named boolean, a message or map named object and a repeated field named array; not ${f.name}`);
    }
    plan[kind] = f;
  }
  if (fields.length === 0) throw new Error(`${name}: a union needs at least one field`);
  return plan;
}

/** Protobuf wire type of a scalar type. */
export function wireTypeOf(scalar: string): number {
  switch (scalar) {
    case 'double':
    case 'fixed64':
    case 'sfixed64':
      return 1;
    case 'string':
    case 'bytes':
      return 2;
    case 'float':
    case 'fixed32':
    case 'sfixed32':
      return 5;
    default:
      return 0;
  }
}
