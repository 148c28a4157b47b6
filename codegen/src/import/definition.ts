import { protoFieldName } from '../model/schema.js';
import { kubernetesExtensions, type ConvertContext } from './context.js';
import { definitionOf, locationOf, protoNameOf, refBetween } from './names.js';
import { parseField, type ParsedField } from './proto.js';
import { KUBE_DEFAULTS } from './defaults.js';
import GO_OMIT_ZERO from './go-omit-zero.json' with { type: 'json' };
import { convertProperty, type RefSink } from './property.js';
import { JSON_UNIONS, wireTypeOf, wireTypeRoot } from './special.js';
import { EMBEDDED_DOCS } from './synthetic/embedded.js';
import { definitionFromProto, schemaOfField } from './synthetic/from-proto.js';
import type { KapiSchema, Location, ProtoMessages, SwaggerSchema } from './types.js';

export interface ConvertedDefinition {
  definition: string;
  location: Location;
  schema: KapiSchema;
}

interface Embedded {
  field: ParsedField;
  definition: string;
  /** JSON properties the embedded message carries, in its field order. */
  properties: string[];
}

/** Finds the JSON property a Protobuf field carries: same name, else the same name ignoring case (`uID`). */
function propertyFor(name: string, available: Set<string>): string | undefined {
  if (available.has(name)) return name;
  const lower = name.toLowerCase();
  return [...available].find((p) => p.toLowerCase() === lower) ?? [...available].find((p) => protoFieldName(p).toLowerCase() === lower);
}

/**
 * The JSON properties an embedded message carries, following nested embedding, or undefined when the message
 * does not look inlined: at least one of its fields, and all or most of them, must be free JSON properties.
 */
function inlinedProperties(message: string, free: Set<string>, messages: ProtoMessages, depth = 0): string[] | undefined {
  const fields = messages[message];
  if (!fields || fields.length === 0 || depth > 3) return undefined;
  const found: string[] = [];
  let missing = 0;
  for (const field of fields) {
    const prop = propertyFor(field.name, free);
    if (prop) {
      found.push(prop);
      continue;
    }
    const parsed = parseField(field, message, messages);
    const nested =
      parsed.shape === 'single' && parsed.element.message !== undefined
        ? inlinedProperties(parsed.element.message, free, messages, depth + 1)
        : undefined;
    if (nested) found.push(...nested);
    else missing++;
  }
  if (found.length === 0) return undefined;
  if (missing > 0 && (found.length < 2 || missing > found.length)) return undefined;
  return found;
}

function pick(properties: Record<string, SwaggerSchema>, names: string[]): Record<string, SwaggerSchema> {
  return Object.fromEntries(names.map((n) => [n, properties[n]]));
}

const PROTO_ONLY = 'Not in the upstream OpenAPI document this schema was imported from; typed from its Protobuf field.';

/** A message only reachable through Protobuf-only fields: synthesized from its fields when those are kept. */
function protoOnlyDefinition(definition: string, ctx: ConvertContext): SwaggerSchema {
  const message = protoNameOf(definition);
  if (!ctx.keepProtoOnlyFields || !ctx.messages[message]) throw new Error(`no definition ${definition}`);
  const synthesized = definitionFromProto(message, ctx.messages, { description: PROTO_ONLY, fields: {} });
  ctx.definitions.set(definition, synthesized);
  return synthesized;
}

/** Converts one definition into a schema file's root, following schemas/README.md. */
export function convertDefinition(definition: string, ctx: ConvertContext, refs: RefSink): ConvertedDefinition {
  const swagger = ctx.definitions.get(definition) ?? protoOnlyDefinition(definition, ctx);
  const location = locationOf(definition);
  const message = protoNameOf(definition);
  const out: KapiSchema = {};
  if (swagger.description !== undefined) out.description = swagger.description;

  const wireType = wireTypeOf(definition);
  if (wireType) {
    Object.assign(out, wireTypeRoot(wireType, swagger), kubernetesExtensions(swagger));
    out['x-kapi-wire-type'] = wireType;
    out['x-kapi-protobuf'] = { message };
    return { definition, location, schema: out };
  }

  const fields = ctx.messages[message];
  if (!fields) throw new Error(`protobuf-fields.json has no message ${message} for ${definition}`);
  const where = location.name;

  if (JSON_UNIONS.has(definition)) {
    // A union: each Protobuf field carries one JSON form of the value (a boolean, a schema, an array).
    out.oneOf = fields.map((field) => {
      const parsed = parseField(field, message, ctx.messages);
      return convertProperty(schemaOfField(parsed), parsed, location, ctx, refs, `${where}.${field.name}`);
    });
    Object.assign(out, kubernetesExtensions(swagger));
    out['x-kapi-protobuf'] = { message };
    return { definition, location, schema: out };
  }

  if (swagger.type === 'array') {
    // A list wrapper (Verbs, ExtraValue): the array travels as the message's repeated `items` field.
    out.type = 'array';
    const items = convertProperty(
      { type: 'array', items: swagger.items },
      parseField(fields[0], message, ctx.messages),
      location,
      ctx,
      refs,
      where,
    );
    out.items = items.items;
    if (items['x-kapi-protobuf-type']) out['x-kapi-protobuf-type'] = items['x-kapi-protobuf-type'];
    Object.assign(out, kubernetesExtensions(swagger));
    out['x-kapi-protobuf'] = { message };
    return { definition, location, schema: out };
  }

  const properties = { ...swagger.properties };
  const free = new Set(Object.keys(properties));
  const isKind = Array.isArray(swagger['x-kubernetes-group-version-kind']);

  // Fields carried by a property of the same name first, then Go-style embedded structs among the rest.
  const direct = new Map<string, ParsedField>();
  const byField = new Map<string, string>();
  for (const field of fields) {
    const prop = propertyFor(field.name, free);
    if (!prop) continue;
    free.delete(prop);
    direct.set(prop, parseField(field, message, ctx.messages));
    byField.set(field.name, prop);
  }
  const embedded = new Map<string, Embedded>();
  for (const field of fields) {
    if (byField.has(field.name)) continue;
    const parsed = parseField(field, message, ctx.messages);
    const inner = parsed.shape === 'single' ? parsed.element.message : undefined;
    const inlined = inner && !wireTypeOf(definitionOf(inner)) ? inlinedProperties(inner, free, ctx.messages) : undefined;
    if (!inner || !inlined) {
      ctx.notes.skippedProtoFields.push(`${message}.${field.name}`);
      if (ctx.keepProtoOnlyFields) {
        properties[field.name] = { description: PROTO_ONLY, ...schemaOfField(parsed) };
        direct.set(field.name, parsed);
        byField.set(field.name, field.name);
      }
      continue;
    }
    for (const prop of inlined) free.delete(prop);
    embedded.set(field.name, { field: parsed, definition: definitionOf(inner), properties: inlined });
  }

  // JSON order is Go struct order: TypeMeta, then the Protobuf declaration order with embedded fields in place.
  const order: string[] = [];
  if (isKind) for (const name of ['kind', 'apiVersion']) if (free.delete(name)) order.push(name);
  for (const field of fields) {
    const prop = byField.get(field.name);
    if (prop) order.push(prop);
    else order.push(...(embedded.get(field.name)?.properties ?? []));
  }
  for (const prop of [...free].sort()) ctx.notes.droppedProperties.push(`${definition}.${prop}`);

  out.type = 'object';
  const required = (swagger.required ?? []).filter((r) => order.includes(r));
  if (required.length) out.required = required;
  Object.assign(out, kubernetesExtensions(swagger));

  const protobuf: KapiSchema = { message };
  if (embedded.size) {
    protobuf.embedded = [...embedded.entries()].map(([name, e]) => {
      if (!ctx.definitions.has(e.definition)) {
        const required = (swagger.required ?? []).filter((r) => e.properties.includes(r));
        ctx.definitions.set(e.definition, {
          description:
            EMBEDDED_DOCS[e.definition] ??
            `${locationOf(e.definition).name} holds fields inlined in ${location.name}'s JSON.`,
          type: 'object',
          ...(required.length ? { required } : {}),
          properties: pick(properties, e.properties),
        });
      }
      refs(e.definition);
      return { name, number: e.field.field.number, $ref: refBetween(location, locationOf(e.definition)) };
    });
  }
  out['x-kapi-protobuf'] = protobuf;

  const props: Record<string, KapiSchema> = {};
  for (const prop of order) {
    props[prop] = convertProperty(properties[prop], direct.get(prop), location, ctx, refs, `${where}.${prop}`);
    const kubeDefault = KUBE_DEFAULTS[definition]?.[prop];
    if (kubeDefault !== undefined) props[prop].default = kubeDefault;
    if ((GO_OMIT_ZERO as Record<string, string[]>)[definition]?.includes(prop)) props[prop]['x-kapi-omit-zero'] = true;
  }
  out.properties = props;
  return { definition, location, schema: out };
}
