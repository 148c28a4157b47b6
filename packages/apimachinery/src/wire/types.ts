import type { AnyNestedObject, IField, IMapField, INamespace, IType } from 'protobufjs';

/**
 * A group's Protobuf descriptors, as protobufjs reflection JSON. Conventions the generator follows:
 * - field names are the JSON property names, except where protobufjs refuses the name (a leading `$`): there the
 *   field's options carry the JSON name as `kapi_json_name`;
 * - a field whose options have `kapi_inline: true` is a Go-style inlined struct: its message's fields appear
 *   flattened in the JSON object;
 * - special types are referenced by their upstream names (`k8s.io.apimachinery.pkg.apis.meta.v1.Time`,
 *   `...MicroTime`, `...Duration`, `...FieldsV1`, `k8s.io.apimachinery.pkg.api.resource.Quantity`,
 *   `k8s.io.apimachinery.pkg.util.intstr.IntOrString`, `k8s.io.apimachinery.pkg.runtime.RawExtension`,
 *   `k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON`) and are converted to and from their JSON forms
 *   by the codec;
 * - a message whose options have `kapi_list_wrapper: true` wraps a Go named slice (`type ExtraValue []string`):
 *   its one repeated field (`items`) holds the elements, and its JSON form is that array;
 * - a message whose options have `kapi_one_of: true` is a union (apiextensions' JSONSchemaPropsOrBool, ...): its
 *   fields are named after the JSON type they carry (`boolean` a bool, `object` a message or map, `array` a
 *   repeated field), and its JSON form is the value of one of them;
 * - a field whose options have `kapi_omit_zero: true` is a Go non-pointer scalar tagged omitempty: always on the
 *   wire (its zero value when unset), left out of the JSON when zero;
 * - every message a group uses is in its descriptor (including meta types), so each group's root is self-contained.
 */
export type ProtoDescriptor = ProtoDescriptorNamespace;

/**
 * A namespace of protobufjs reflection JSON. protobufjs's own `INamespace` typing has no map fields (`keyType`), so
 * these types widen it: every `INamespace` is a ProtoDescriptorNamespace, and message fields may be map fields.
 */
export interface ProtoDescriptorNamespace extends Omit<INamespace, 'nested'> {
  nested?: { [name: string]: ProtoDescriptorNested };
}

/** A message of protobufjs reflection JSON whose fields may be map fields. */
export interface ProtoDescriptorType extends Omit<IType, 'fields' | 'nested'> {
  fields: { [name: string]: IField | IMapField };
  nested?: { [name: string]: ProtoDescriptorNested };
}

/** Anything a descriptor namespace may nest. */
export type ProtoDescriptorNested = ProtoDescriptorType | ProtoDescriptorNamespace | AnyNestedObject;

/** Encodes and decodes kube JSON objects as raw Protobuf messages (no envelope). */
export interface MessageCodec {
  /** JSON form (as served by kube) → Protobuf bytes of `messageName`. Maps are written in key order. */
  encode(messageName: string, obj: unknown): Uint8Array;
  /** Protobuf bytes of `messageName` → JSON form. */
  decode(messageName: string, bytes: Uint8Array): Record<string, unknown>;
}
