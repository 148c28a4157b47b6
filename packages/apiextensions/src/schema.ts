/** A node of a CustomResourceDefinition's openAPIV3Schema (apiextensions.k8s.io/v1 JSONSchemaProps), as JSON. */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps | JSONSchemaProps[];
  required?: string[];
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: { rule: string; message?: string; messageExpression?: string; fieldPath?: string; reason?: string; optionalOldSelf?: boolean }[];
  [other: string]: unknown;
}

/** The one schema of `items` (CRD schemas are structural: never a list of schemas). */
export const itemsOf = (node: JSONSchemaProps): JSONSchemaProps | undefined =>
  Array.isArray(node.items) ? node.items[0] : node.items;

/**
 * The key of an item of a `map` list (`x-kubernetes-list-map-keys`): each key field's value, a field left out with its
 * default (as the item will be stored), and those without either left out.
 */
export function mapListKey(node: JSONSchemaProps, item: Record<string, unknown>): Record<string, unknown> {
  const items = itemsOf(node);
  const key: Record<string, unknown> = {};
  for (const k of node['x-kubernetes-list-map-keys'] ?? []) {
    const value = item[k] ?? items?.properties?.[k]?.default;
    if (value !== undefined) key[k] = value;
  }
  return key;
}

/** The schema of a map's values, when the node is a map (`additionalProperties` with a schema). */
export const valuesOf = (node: JSONSchemaProps): JSONSchemaProps | undefined =>
  node.additionalProperties && typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
