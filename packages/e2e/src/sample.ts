import type { Model, SchemaFile, SchemaNode } from '@kapi/codegen';

/**
 * Builds an object with every field of a schema set to a recognizable non-zero value, like upstream's
 * round-trip fuzzer with fixed choices: strings `<field>Value`, int32 3, int64 7, every list with one element,
 * every map with one entry, each special wire type in its JSON form and each union as its first alternative that
 * can be filled (TypeMeta of schema roots excepted). A type already being filled higher up
 * (a recursive schema) is left out below itself.
 */
export function sampleObject(model: Model, file: SchemaFile): Record<string, unknown> {
  return sampleNode(model, file, file.schema, 'root', [file.id]) as Record<string, unknown>;
}

const WIRE_SAMPLES: Record<string, unknown> = {
  Time: '2008-01-01T01:01:01Z',
  MicroTime: '2008-01-01T01:01:01.123456Z',
  Duration: '1h2m3s',
  Quantity: '5Gi',
  IntOrString: 'intOrStringValue',
  RawExtension: { apiVersion: 'example.com/v1', kind: 'Sample', spec: { answer: 42 } },
  FieldsV1: { 'f:metadata': { 'f:labels': { '.': {} } } },
  JSON: { answer: [42, 'forty-two', true, null] },
};

function sampleNode(model: Model, file: SchemaFile, node: SchemaNode, name: string, stack: string[]): unknown {
  if (node.$ref) {
    const target = model.resolve(file, node.$ref);
    if (stack.includes(target.id)) return undefined;
    return sampleNode(model, target, target.schema, name, [...stack, target.id]);
  }
  const wire = node['x-kapi-wire-type'];
  if (wire) return WIRE_SAMPLES[wire];
  if (node.oneOf) {
    // A union: its first alternative that can be filled (a recursive schema cannot be below itself).
    for (const alt of node.oneOf) {
      const value = sampleNode(model, file, alt, name, stack);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string') return 3;
  if (node.enum?.length) return node.enum[0];
  switch (node.type) {
    case 'string':
      return node.format === 'byte' ? Buffer.from(`${name}Bytes`).toString('base64') : `${name}Value`;
    case 'integer':
      return node.format === 'int32' || node['x-kapi-protobuf-type'] === 'int32' ? 3 : 7;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array': {
      const item = node.items ? sampleNode(model, file, node.items, name, stack) : undefined;
      return item === undefined ? undefined : [item];
    }
    default:
      break;
  }
  if (node.properties) {
    const out: Record<string, unknown> = {};
    for (const [prop, child] of Object.entries(node.properties)) {
      // TypeMeta of a schema root travels in the Protobuf envelope, not in the message (nested ones are lost,
      // as upstream loses them), so it is not part of what round-trips.
      const typeMeta = prop === 'apiVersion' || prop === 'kind';
      if (typeMeta && node === file.schema && child['x-kapi-field-number'] === undefined) continue;
      const value = sampleNode(model, file, child, prop, stack);
      if (value !== undefined) out[prop] = value;
    }
    return out;
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const value = sampleNode(model, file, node.additionalProperties, name, stack);
    // A map of a type being filled higher up is left out, as an empty map is on the wire (Go omits it).
    return value === undefined ? undefined : { [`${name}Key`]: value };
  }
  return { sample: { free: 'form' } };
}
