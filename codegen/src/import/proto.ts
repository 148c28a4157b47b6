import type { ProtoField, ProtoMessages } from './types.js';

/** The element type of a Protobuf field: a scalar or a message (full name, no leading dot). */
export type ProtoType = { scalar: string; message?: undefined } | { message: string; scalar?: undefined };

/** A field's shape: `repeated` for lists, `map` for `map<string, V>` (the element is V). */
export interface ParsedField {
  field: ProtoField;
  shape: 'single' | 'repeated' | 'map';
  element: ProtoType;
}

const SCALARS = new Set([
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes',
]);

function packageOf(message: string): string {
  return message.slice(0, message.lastIndexOf('.'));
}

/** Resolves a type name as protoc does: absolute (`.a.b.C`), else relative to the enclosing message's package. */
export function resolveType(typeName: string, inMessage: string, messages: ProtoMessages): ProtoType {
  if (SCALARS.has(typeName)) return { scalar: typeName };
  if (typeName.startsWith('.')) return { message: typeName.slice(1) };
  let pkg = packageOf(inMessage);
  while (pkg) {
    const candidate = `${pkg}.${typeName}`;
    if (candidate in messages) return { message: candidate };
    pkg = pkg.includes('.') ? packageOf(pkg) : '';
  }
  return { message: `${packageOf(inMessage)}.${typeName}` };
}

export function parseField(field: ProtoField, inMessage: string, messages: ProtoMessages): ParsedField {
  if (field.label === 'map') {
    const match = /^map<\s*string\s*,\s*(.+?)\s*>$/.exec(field.type);
    if (!match) throw new Error(`${inMessage}.${field.name}: unsupported map type ${field.type}`);
    return { field, shape: 'map', element: resolveType(match[1], inMessage, messages) };
  }
  return { field, shape: field.label === 'repeated' ? 'repeated' : 'single', element: resolveType(field.type, inMessage, messages) };
}

/**
 * A message that only wraps a list (Go `type Verbs []string`, `type ExtraValue []string`): one repeated field
 * `items` = 1. Its JSON form is the bare array.
 */
export function isListWrapper(message: string, messages: ProtoMessages): boolean {
  const fields = messages[message];
  return fields?.length === 1 && fields[0].name === 'items' && fields[0].number === 1 && fields[0].label === 'repeated';
}
