import { kubernetesExtensions, type ConvertContext } from './context.js';
import { definitionOf, definitionOfRef, locationOf, protoNameOf, refBetween } from './names.js';
import { isListWrapper, type ParsedField, type ProtoType } from './proto.js';
import { wireTypeOf } from './special.js';
import type { KapiSchema, Location, SwaggerSchema } from './types.js';

/** The Protobuf scalar a JSON schema maps to without `x-kapi-protobuf-type` (schemas/README.md). */
export function naturalScalar(node: SwaggerSchema): string | undefined {
  switch (node.type) {
    case 'string':
      return node.format === 'byte' ? 'bytes' : 'string';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return node.format === 'float' ? 'float' : 'double';
    case 'boolean':
      return 'bool';
    default:
      return undefined;
  }
}

/** Collects the definitions a converted schema refers to. */
export type RefSink = (definition: string) => void;

function listWrapperDefinition(message: string, items: SwaggerSchema | undefined): SwaggerSchema {
  const name = message.slice(message.lastIndexOf('.') + 1);
  return {
    description: `${name} is a list; on the wire it is a message whose repeated field \`items\` (1) holds the elements (Go \`type ${name} []string\`).`,
    type: 'array',
    items: items ?? { type: 'string' },
  };
}

/**
 * Converts one value schema (a property, or the element of an array or map) given the Protobuf type that
 * carries it. A swagger `$ref` becomes a relative file reference; an inline value whose Protobuf type is a
 * special apimachinery message, or a list-wrapper message, becomes a reference to that message's schema.
 */
function convertValue(
  node: SwaggerSchema,
  element: ProtoType | undefined,
  here: Location,
  ctx: ConvertContext,
  refs: RefSink,
  where: string,
): KapiSchema {
  const out: KapiSchema = {};
  let target: string | undefined;
  if (node.$ref) {
    target = definitionOfRef(node.$ref);
    if (element?.message !== undefined && element.message !== protoNameOf(target)) {
      ctx.notes.warnings.push(`${where}: swagger refers to ${target}, Protobuf carries ${element.message}`);
    }
  } else if (element?.message !== undefined) {
    const definition = definitionOf(element.message);
    if (wireTypeOf(definition)) {
      target = definition;
    } else if (node.type === 'array' && isListWrapper(element.message, ctx.messages)) {
      if (!ctx.definitions.has(definition)) ctx.definitions.set(definition, listWrapperDefinition(element.message, node.items));
      target = definition;
    } else if (!(node.type === 'object' && !node.properties && !node.additionalProperties)) {
      ctx.notes.warnings.push(`${where}: inline ${node.type} schema, Protobuf carries message ${element.message}`);
    }
  }
  if (node.description !== undefined) out.description = node.description;
  if (target !== undefined) {
    out.$ref = refBetween(here, locationOf(target));
    refs(target);
    return Object.assign(out, kubernetesExtensions(node));
  }
  for (const key of ['type', 'format', 'enum', 'default'] as const) {
    if (node[key] !== undefined) out[key] = node[key];
  }
  if (node.items) out.items = convertValue(node.items, undefined, here, ctx, refs, `${where}[]`);
  if (typeof node.additionalProperties === 'object') {
    out.additionalProperties = convertValue(node.additionalProperties, undefined, here, ctx, refs, `${where}{}`);
  }
  if (node.properties) ctx.notes.warnings.push(`${where}: inline object properties are not imported`);
  return Object.assign(out, kubernetesExtensions(node));
}

/**
 * Converts a property. With its Protobuf field, it gets `x-kapi-field-number` and, where the field's scalar
 * type is not the schema's natural one, `x-kapi-protobuf-type` (of the elements, for arrays and maps).
 */
export function convertProperty(
  node: SwaggerSchema,
  field: ParsedField | undefined,
  here: Location,
  ctx: ConvertContext,
  refs: RefSink,
  where: string,
): KapiSchema {
  if (!field) return convertValue(node, undefined, here, ctx, refs, where);
  const { shape, element } = field;
  let out: KapiSchema;
  let elementNode: SwaggerSchema | undefined;
  if (shape === 'repeated' && node.type === 'array' && node.items) {
    out = convertValue({ ...node, items: undefined }, undefined, here, ctx, refs, where);
    out.items = convertValue(node.items, element, here, ctx, refs, `${where}[]`);
    elementNode = node.items;
  } else if (shape === 'map' && node.type === 'object' && typeof node.additionalProperties === 'object') {
    out = convertValue({ ...node, additionalProperties: undefined }, undefined, here, ctx, refs, where);
    out.additionalProperties = convertValue(node.additionalProperties, element, here, ctx, refs, `${where}{}`);
    elementNode = node.additionalProperties;
  } else {
    if (shape !== 'single') ctx.notes.warnings.push(`${where}: Protobuf field is ${shape}, swagger has ${node.type ?? node.$ref}`);
    out = convertValue(node, element, here, ctx, refs, where);
    elementNode = node;
  }
  if (element.scalar !== undefined && !elementNode.$ref && naturalScalar(elementNode) !== element.scalar) {
    out['x-kapi-protobuf-type'] = element.scalar;
  }
  out['x-kapi-field-number'] = field.field.number;
  return out;
}

