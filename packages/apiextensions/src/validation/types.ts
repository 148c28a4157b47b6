// The wire shapes the validation reads. The generated JSONSchemaProps type follows Go's struct (items as
// {schema, jSONSchemas}, default as {raw}); a CRD on the wire carries JSON Schema as written, so schemas are read as
// JSONSchema below.
import type { FieldError } from '@kapi/apimachinery';
import type { CustomResourceDefinition } from '@kapi/api-apiextensions';

/** An apiextensions.k8s.io/v1 CustomResourceDefinition as JSON. */
export type CRD = CustomResourceDefinition;

/** One x-kubernetes-validations rule. */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** A JSONSchemaProps as JSON carries it (items an object or an array, additionalProperties a schema or a boolean). */
export interface JSONSchema {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchema | JSONSchema[];
  allOf?: JSONSchema[];
  oneOf?: JSONSchema[];
  anyOf?: JSONSchema[];
  not?: JSONSchema;
  properties?: Record<string, JSONSchema>;
  additionalProperties?: JSONSchema | boolean;
  patternProperties?: Record<string, JSONSchema>;
  dependencies?: Record<string, JSONSchema | string[]>;
  additionalItems?: JSONSchema | boolean;
  definitions?: Record<string, JSONSchema>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** What the CEL module learns about a schema node whose x-kubernetes-validations it compiles. */
export interface RuleContext {
  /**
   * The path of the highest ancestor (kube's field path) below which old and new values cannot be correlated (inside
   * an atomic or set list, or a map of unknown map-type), or undefined. A rule that uses `oldSelf` there is invalid:
   * kube answers `Invalid value: <rule>: oldSelf cannot be used on the uncorrelatable portion of the schema within
   * <path>` at `x-kubernetes-validations[i].rule`.
   */
  uncorrelatablePath?: string;
  /** Whether the node is the root of the resource schema (`openAPIV3Schema`). */
  isRoot: boolean;
}

/** Hooks for the checks another module owns. */
export interface CRDValidationOptions {
  /**
   * Compiles the x-kubernetes-validations rules of one schema node (CEL) and answers the errors kube's compilation
   * step gives, at paths under `<path>.x-kubernetes-validations[i]`. Called, as kube does, only when the whole schema
   * is structural with valid defaults and this node and everything below it passed the schema checks. The CRD
   * strategy records the nodes it is called for and compiles the whole schema afterwards (for its total cost), keeping
   * those nodes' errors; without the hook, rules are checked for shape only (rule, message, reason, fieldPath).
   */
  compileRules?: (schema: JSONSchema, path: string, context: RuleContext) => FieldError[];
  /**
   * Validates a default value against the schema node that declares it (kube's ValidateCustomResource of the default,
   * then its CEL rules), answering errors at `path` (`...default`) and below. Without it, defaults are checked for
   * unknown fields (pruning) and embedded apiVersion/kind only.
   */
  validateDefault?: (value: unknown, schema: JSONSchema, path: string) => FieldError[];
}
