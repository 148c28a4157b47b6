import type { KapiSchema, SwaggerSchema } from './types.js';

/**
 * Types with their own wire encoding (`x-kapi-wire-type`): apimachinery's, and apiextensions' `JSON` (any JSON
 * value, a CustomResourceDefinition schema's `default`). Their JSON is a scalar or free-form value, so their
 * Protobuf fields are not described by properties; the generator knows their layout.
 */
export const WIRE_TYPES: Record<string, string> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'MicroTime',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration': 'Duration',
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'IntOrString',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'FieldsV1',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': 'JSON',
};

/**
 * Go types whose JSON form is one of their fields' values, picked by JSON type, by their own MarshalJSON
 * (apiextensions' marshal.go): JSONSchemaPropsOrBool is `true`/`false` or a schema, JSONSchemaPropsOrArray a schema
 * or an array of them, JSONSchemaPropsOrStringArray a schema or an array of strings. Upstream's OpenAPI leaves them
 * untyped; they are imported as unions (`oneOf`) of their Protobuf fields.
 */
export const JSON_UNIONS: ReadonlySet<string> = new Set([
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);

export function wireTypeOf(definition: string): string | undefined {
  return WIRE_TYPES[definition];
}

/**
 * The JSON Schema keywords of a wire type's root, beside its description. They follow upstream's OpenAPI, with
 * the hints a validator needs: a Quantity string has format `quantity`, an IntOrString is flagged, and the
 * free-form RawExtension and FieldsV1 keep unknown fields.
 */
export function wireTypeRoot(wireType: string, swagger: SwaggerSchema): KapiSchema {
  switch (wireType) {
    case 'Time':
    case 'MicroTime':
      return { type: 'string', format: 'date-time' };
    case 'Duration':
      return { type: 'string' };
    case 'Quantity':
      return { type: 'string', format: 'quantity' };
    case 'IntOrString':
      return { type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true };
    case 'RawExtension':
    case 'FieldsV1':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    case 'JSON':
      // Any JSON value (a string, a number, an object, ...): no type, as upstream's OpenAPI has it.
      return {};
    default:
      return { type: swagger.type };
  }
}
