import { GENERATED_HEADER, type OutputFile } from '../output.js';
import { protoFieldName, type SchemaFile, type SchemaNode, type WireType } from '../model/schema.js';
import type { TypeDef } from '../model/graph.js';
import { oneOfAlternatives } from '../model/one-of.js';
import { emitsTypes, ownKinds, type PackageContext } from './context.js';
import { WIRE_TYPE_FIELDS, WIRE_TYPE_MESSAGES } from './wire-types.js';

interface FieldJson {
  type: string;
  id: number;
  rule?: 'repeated';
  keyType?: string;
  options?: Record<string, boolean | string>;
}
interface MessageJson {
  fields: Record<string, FieldJson>;
  options?: Record<string, boolean>;
}

const SCALARS = new Set([
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes',
]);

/**
 * Builds the package's Protobuf descriptor (protobufjs reflection JSON): one message per object type of its own
 * folders, a `<Kind>List` message per own kind, and the special wire types that are used. References to other
 * packages' messages are resolved when the group merges their descriptors (mergeDescriptors).
 */
export function buildDescriptor(ctx: PackageContext): Record<string, unknown> {
  const messages = new Map<string, MessageJson>();
  const needWire = new Set<WireType>();
  const { model } = ctx;

  const fieldType = (file: SchemaFile, node: SchemaNode, where: string): Omit<FieldJson, 'id'> => {
    const override = node['x-kapi-protobuf-type'];
    if (node.$ref) {
      const target = model.resolve(file, node.$ref);
      const wire = target.schema['x-kapi-wire-type'];
      if (wire) {
        needWire.add(wire);
        return { type: '.' + WIRE_TYPE_MESSAGES[wire] };
      }
      if (target.schema.type === 'object' || target.schema.properties || target.schema.oneOf || target.schema.type === 'array' && target.schema['x-kapi-protobuf']) {
        return { type: '.' + model.rootType(target).message };
      }
      return fieldType(target, { ...target.schema, ...(override ? { 'x-kapi-protobuf-type': override } : {}) }, where);
    }
    if (override && SCALARS.has(override) && node.type !== 'array') return { type: override };
    if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string') {
      needWire.add('IntOrString');
      return { type: '.' + WIRE_TYPE_MESSAGES.IntOrString };
    }
    switch (node.type) {
      case 'string':
        return { type: node.format === 'byte' ? 'bytes' : 'string' };
      case 'integer':
        return { type: node.format === 'int32' ? 'int32' : 'int64' };
      case 'number':
        return { type: node.format === 'float' ? 'float' : 'double' };
      case 'boolean':
        return { type: 'bool' };
      case 'array': {
        if (!node.items) throw new Error(`${where}: array without items`);
        const inner = fieldType(file, override ? { ...node.items, 'x-kapi-protobuf-type': override } : node.items, where);
        if (inner.rule || inner.keyType) throw new Error(`${where}: nested collections need a named wrapper type`);
        return { ...inner, rule: 'repeated' };
      }
      case 'object': {
        const nested = model.nestedType(node);
        if (nested) return { type: '.' + nested.message };
        if (node.additionalProperties && typeof node.additionalProperties === 'object') {
          const inner = fieldType(file, node.additionalProperties, where);
          if (inner.rule || inner.keyType) throw new Error(`${where}: map of collections needs a named wrapper type`);
          return { ...inner, keyType: 'string' };
        }
        needWire.add('RawExtension');
        return { type: '.' + WIRE_TYPE_MESSAGES.RawExtension };
      }
      default:
        needWire.add('RawExtension');
        return { type: '.' + WIRE_TYPE_MESSAGES.RawExtension };
    }
  };

  const addMessage = (def: TypeDef) => {
    const { file, node } = def;
    const wire = node['x-kapi-wire-type'];
    if (wire) {
      needWire.add(wire);
      return;
    }
    const fields: Record<string, FieldJson> = {};
    if (node.oneOf) {
      // A union (Go's JSONSchemaPropsOrBool): one field per alternative, named after the JSON type it carries.
      for (const { kind, node: alt } of oneOfAlternatives(model, file, node)) {
        fields[kind] = { ...fieldType(file, alt, `${def.key}.oneOf`), id: alt['x-kapi-field-number']! };
      }
      messages.set(def.message, { fields, options: { kapi_one_of: true } });
      return;
    }
    if (node.type === 'array' && node.items) {
      // A named list type (Go `type ExtraValue []string`): upstream wraps it in a message with one `items` field.
      fields.items = { ...fieldType(file, node.items, def.key), id: 1, rule: 'repeated' };
      messages.set(def.message, { fields, options: { kapi_list_wrapper: true } });
      return;
    }
    if (!node.properties) return;
    for (const [prop, child] of Object.entries(node.properties)) {
      const id = child['x-kapi-field-number'];
      if (id === undefined) continue;
      const field: FieldJson = { ...fieldType(file, child, `${def.key}.${prop}`), id };
      // protobufjs refuses field names that are not identifiers (`$ref`, `x-kubernetes-list-type` of a JSON
      // schema): such a field gets Go's Protobuf name (`ref`, `xKubernetesListType`) and carries its JSON name in
      // an option.
      const name = protoFieldName(prop);
      if (name !== prop) field.options = { ...field.options, kapi_json_name: prop };
      if (child['x-kapi-omit-zero']) {
        // A Go non-pointer scalar tagged omitempty: Go always writes it, and leaves it out of JSON when zero.
        if (!SCALARS.has(field.type) || field.rule || field.keyType) throw new Error(`${def.key}.${prop}: x-kapi-omit-zero is for scalar fields`);
        field.options = { ...field.options, kapi_omit_zero: true };
      }
      const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
      if (!name || has(fields, name) || (name !== prop && has(node.properties, name))) {
        throw new Error(`${def.key}.${prop}: no free Protobuf field name for this property`);
      }
      fields[name] = field;
    }
    for (const embedded of node === file.schema ? (file.schema['x-kapi-protobuf']?.embedded ?? []) : []) {
      const target = model.resolve(file, embedded.$ref);
      fields[embedded.name] = { type: '.' + model.rootType(target).message, id: embedded.number, options: { kapi_inline: true } };
    }
    messages.set(def.message, { fields });
  };

  // Own messages only: the messages of other packages' types come from those packages when the group is loaded.
  for (const file of ctx.files.filter((f) => emitsTypes(ctx, f))) for (const def of model.types(file)) addMessage(def);
  for (const file of ownKinds(ctx)) {
    const root = model.rootType(file);
    const listMeta = [...ctx.files].find((f) => f.folder === 'meta' && f.name === 'ListMeta');
    if (!listMeta) throw new Error('schemas/meta/v1/ListMeta.json is required by every kind');
    messages.set(`${root.message}List`, {
      fields: {
        metadata: { type: '.' + model.rootType(listMeta).message, id: 1 },
        items: { type: '.' + root.message, id: 2, rule: 'repeated' },
      },
    });
  }
  for (const wire of needWire) messages.set(WIRE_TYPE_MESSAGES[wire], { fields: { ...WIRE_TYPE_FIELDS[wire] } });
  return nest(messages);
}

/**
 * protobufjs JSON nests messages in namespaces by the dotted package. Namespaces and messages are sorted for a
 * stable output; fields keep the schema's declaration order, which is the order kube writes JSON in.
 */
function nest(messages: Map<string, MessageJson>): Record<string, unknown> {
  const root: Record<string, any> = {};
  for (const name of [...messages.keys()].sort()) {
    const parts = name.split('.');
    let ns = root;
    for (const part of parts.slice(0, -1)) {
      ns.nested ??= {};
      ns.nested[part] ??= {};
      ns = ns.nested[part];
    }
    ns.nested ??= {};
    ns.nested[parts[parts.length - 1]] = messages.get(name);
  }
  return sortNamespaces(root);
}

function sortNamespaces(ns: Record<string, any>): Record<string, any> {
  if (!ns.nested) return ns;
  const nested = Object.fromEntries(Object.keys(ns.nested).sort().map((k) => [k, sortNamespaces(ns.nested[k])]));
  return { ...ns, nested };
}

export function emitDescriptor(ctx: PackageContext): OutputFile {
  const descriptor = buildDescriptor(ctx);
  const importFrom = ctx.isApimachinery ? '../wire/types.js' : '@kapi/apimachinery';
  return {
    path: `${ctx.directory}/src/generated/descriptor.ts`,
    content:
      `${GENERATED_HEADER}\nimport type { ProtoDescriptor } from '${importFrom}';\n\n` +
      `/** Protobuf descriptors (protobufjs reflection JSON) of this package's own messages. */\n` +
      `export const descriptor: ProtoDescriptor = ${JSON.stringify(descriptor, null, 1)};\n`,
  };
}
