import { definitionOf, swaggerRef } from '../names.js';
import { parseField, type ParsedField, type ProtoType } from '../proto.js';
import type { GroupVersionKind, ProtoMessages, SwaggerSchema } from '../types.js';

/** Hand-written documentation of a message that swagger does not describe. */
export interface MessageDoc {
  description: string;
  /** Field descriptions by JSON name (= proto name). */
  fields: Record<string, string>;
  /** Fields Go always serializes (no `omitempty`). */
  required?: string[];
  /** A top-level kind: it gets `apiVersion` and `kind` properties like swagger's kinds. */
  kind?: GroupVersionKind;
}

const TYPE_META: Record<string, SwaggerSchema> = {
  kind: {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    type: 'string',
  },
  apiVersion: {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    type: 'string',
  },
};

function elementSchema(type: ProtoType): SwaggerSchema {
  if (type.message !== undefined) return { $ref: swaggerRef(definitionOf(type.message)) };
  switch (type.scalar) {
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'bool':
      return { type: 'boolean' };
    case 'double':
    case 'float':
      return { type: 'number', format: type.scalar };
    case 'int32':
    case 'int64':
      return { type: 'integer', format: type.scalar };
    default:
      return { type: 'integer', format: 'int64' };
  }
}

/** The swagger-style schema of a Protobuf field: JSON name = proto name, natural JSON types. */
export function schemaOfField(parsed: ParsedField): SwaggerSchema {
  const element = elementSchema(parsed.element);
  if (parsed.shape === 'repeated') return { type: 'array', items: element };
  if (parsed.shape === 'map') return { type: 'object', additionalProperties: element };
  return element;
}

/**
 * A swagger-style definition for a message that only Protobuf describes (apidiscovery/v2, GroupVersionKind):
 * JSON name = proto name, scalars by their natural JSON type, messages by reference, repeated as arrays and
 * maps as objects with `additionalProperties`.
 */
export function definitionFromProto(message: string, messages: ProtoMessages, doc: MessageDoc): SwaggerSchema {
  const fields = messages[message];
  if (!fields) throw new Error(`protobuf-fields.json has no message ${message}`);
  const properties: Record<string, SwaggerSchema> = doc.kind ? { ...TYPE_META } : {};
  for (const field of fields) {
    const schema = schemaOfField(parseField(field, message, messages));
    const description = doc.fields[field.name];
    properties[field.name] = description === undefined ? schema : { description, ...schema };
  }
  return {
    description: doc.description,
    type: 'object',
    ...(doc.required ? { required: doc.required } : {}),
    properties,
    ...(doc.kind ? { 'x-kubernetes-group-version-kind': [doc.kind] } : {}),
  };
}
