// kube's CEL types that are not JSON (Quantity, URL, IP, CIDR, NamedFormat, Semver, optional) as protobuf messages with
// one string field, so @bufbuild/cel can type, compare and dispatch on them. The string is the value's canonical text,
// which makes message equality the value equality kube defines.
import { create, createFileRegistry, type DescMessage } from '@bufbuild/protobuf';
import { reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { objectType, type CelObjectType, type CelValue } from '@bufbuild/cel';

function file(name: string, pkg: string, messages: string[]) {
  return create(FileDescriptorProtoSchema, {
    name,
    package: pkg,
    syntax: 'proto3',
    messageType: messages.map((m) => ({
      name: m,
      field: [{ name: 'value', jsonName: 'value', number: 1, type: FieldDescriptorProto_Type.STRING, label: FieldDescriptorProto_Label.OPTIONAL }],
    })),
  });
}

/** The protobuf registry that declares kube's opaque CEL types. */
export const opaqueRegistry = createFileRegistry(
  createFileRegistry(file('kapi/cel/kubernetes.proto', 'kubernetes', ['Quantity', 'URL', 'NamedFormat', 'Semver']), () => undefined),
  createFileRegistry(file('kapi/cel/net.proto', 'net', ['IP', 'CIDR']), () => undefined),
  createFileRegistry(file('kapi/cel/optional.proto', '', ['optional_type']), () => undefined),
  createFileRegistry(file('kapi/cel/authz.proto', 'kubernetes.authorization', ['Authorizer', 'PathCheck', 'GroupCheck', 'ResourceCheck', 'Decision']), () => undefined),
);

function desc(name: string): DescMessage {
  const d = opaqueRegistry.getMessage(name);
  if (!d) throw new Error(`internal: ${name} not declared`);
  return d;
}

/** An opaque kube CEL type: its CEL type for overloads, a constructor and a reader of its canonical text. */
export interface OpaqueType {
  readonly celType: CelObjectType;
  make(text: string): ReflectMessage;
  text(v: CelValue): string;
  is(v: unknown): v is ReflectMessage;
}

function opaque(name: string): OpaqueType {
  const d = desc(name);
  const celType = objectType(d);
  const field = d.fields[0];
  return {
    celType,
    make: (text) => reflect(d, create(d, { value: text } as never)),
    text: (v) => String((v as ReflectMessage).get(field)),
    is: (v): v is ReflectMessage =>
      typeof v === 'object' && v !== null && 'desc' in v && (v as ReflectMessage).desc?.typeName === d.typeName,
  };
}

export const QUANTITY = opaque('kubernetes.Quantity');
export const URL_TYPE = opaque('kubernetes.URL');
export const NAMED_FORMAT = opaque('kubernetes.NamedFormat');
export const SEMVER = opaque('kubernetes.Semver');
export const IP_TYPE = opaque('net.IP');
export const CIDR_TYPE = opaque('net.CIDR');

/** kube's authorization library types (library/authz.go). */
export const AUTHORIZER = opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK = opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK = opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK = opaque('kubernetes.authorization.ResourceCheck');
export const DECISION = opaque('kubernetes.authorization.Decision');

const OPTIONAL = opaque('optional_type');
const optionalValues = new WeakMap<object, CelValue>();

/** CEL's optional type: `optional.of(v)` / `optional.none()`. */
export const Optional = {
  celType: OPTIONAL.celType,
  is: OPTIONAL.is,
  of(v: CelValue): ReflectMessage {
    const m = OPTIONAL.make('some');
    optionalValues.set(m.message, v);
    return m;
  },
  none(): ReflectMessage {
    return OPTIONAL.make('none');
  },
  /** The value of an optional, or undefined for none. */
  value(opt: ReflectMessage): CelValue | undefined {
    return optionalValues.get(opt.message);
  },
};
