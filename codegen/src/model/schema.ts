/** The subset of JSON Schema (plus x-kubernetes-* and x-kapi-* keys) that schema files use. See schemas/README.md. */
export interface SchemaNode {
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  $ref?: string;
  /**
   * A union (schema root only): the value is one of these alternatives, told apart by JSON type (a boolean, an
   * object, an array), each carried by its own Protobuf field (`x-kapi-field-number`).
   */
  oneOf?: SchemaNode[];
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  /** A Go non-pointer scalar tagged omitempty: its zero value (0, false, "") means unset (codegen/scripts/go-omit-zero.py). */
  'x-kapi-omit-zero'?: boolean;
  'x-kapi-field-number'?: number;
  /**
   * How a property with no counterpart in another version of its kind converts: `manual` (the group's hand-written
   * hook) or `preserve` (kept in the `conversion.kapi.dev/<version>` annotation of the converted object).
   */
  'x-kapi-conversion'?: 'manual' | 'preserve';
  'x-kapi-protobuf-type'?: string;
  'x-kapi-wire-type'?: WireType;
  'x-kapi-protobuf'?: { message?: string; embedded?: EmbeddedField[] };
  'x-kapi-resource'?: ResourceHeader;
  [key: string]: unknown;
}

export type WireType = 'Time' | 'MicroTime' | 'Duration' | 'Quantity' | 'IntOrString' | 'RawExtension' | 'FieldsV1' | 'JSON';

export interface EmbeddedField {
  name: string;
  number: number;
  $ref: string;
}

export interface ResourceHeader {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  scope: 'Namespaced' | 'Cluster';
  shortNames?: string[];
  categories?: string[];
  /** The one version a kind served in several versions is stored in. */
  storageVersion?: boolean;
  /**
   * On the storage version: `manual` when the group's plugin converts the kind whole (its `conversions`), as Go's
   * `+k8s:conversion-gen=false`: codegen then matches no fields and generates no converter for it.
   */
  conversion?: 'manual';
  /**
   * The version is deprecated: kube's warning (`<apiVersion> <Kind> is deprecated[ in v<in>+][, unavailable in
   * v<removedIn>+][; use <replacement>]`) or `warning`. `in` and `removedIn` are releases (`1.25`).
   */
  deprecated?: { in?: string; removedIn?: string; replacement?: string; warning?: string };
  /** kube's name rule of the kind: `DNS1123Subdomain` (the default), `DNS1123Label`, `DNS1035Label`, `PathSegment`. */
  nameValidation?: 'DNS1123Subdomain' | 'DNS1123Label' | 'DNS1035Label' | 'PathSegment';
  /** Whether a PUT of a missing object creates it (kube's AllowCreateOnUpdate); true when absent. */
  allowCreateOnUpdate?: boolean;
  /** Whether an update may leave out metadata.resourceVersion (kube's AllowUnconditionalUpdate); true when absent. */
  allowUnconditionalUpdate?: boolean;
  verbs: string[];
  listKind?: string;
  subresources?: {
    status?: Record<string, never>;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
    others?: { name: string; group?: string; version?: string; kind?: string; verbs: string[] }[];
  };
  printerColumns?: {
    name: string;
    type: string;
    jsonPath: string;
    description?: string;
    priority?: number;
    format?: string;
  }[];
}

/** One file `schemas/<folder>/<version>/<name>.json`. */
export interface SchemaFile {
  /** `<folder>/<version>/<name>`, unique across the tree. */
  id: string;
  folder: string;
  version: string;
  name: string;
  schema: SchemaNode;
}

/** One folder `schemas/<folder>/` and the package it generates into. */
export interface GroupFolder {
  folder: string;
  /** API group name (`""` for core). */
  group: string;
  packageName: string;
  /** Package directory relative to the repository root. */
  directory: string;
  description?: string;
  /**
   * Whether the group's kinds accept strategic merge patches (`group.json` `"strategicMergePatch": true`): kube
   * serves them for built-in types and refuses them (415) for custom resources. Off unless declared.
   */
  strategicMergePatch: boolean;
  /**
   * A group whose package is published on its own (the built-in groups @kapi/codegen ships the schemas of): its
   * types are referenced and imported from that package, never generated.
   */
  external?: boolean;
}

export interface SchemaSet {
  files: Map<string, SchemaFile>;
  groups: Map<string, GroupFolder>;
}

/**
 * The Protobuf field name of a JSON property: itself, or Go's name for one that is not an identifier
 * (JSONSchemaProps' `$ref` is field `ref`, its `x-kubernetes-list-type` is `xKubernetesListType`).
 */
export function protoFieldName(prop: string): string {
  return prop.replace(/^\$+/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
