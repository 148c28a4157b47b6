/** Shapes of the two upstream inputs and of the schema files the importer writes. */

/** A schema in upstream's OpenAPI v2 document (`definitions` and their properties). */
export interface SwaggerSchema {
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  required?: string[];
  items?: SwaggerSchema;
  additionalProperties?: SwaggerSchema | boolean;
  properties?: Record<string, SwaggerSchema>;
  [extension: `x-${string}`]: unknown;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface SwaggerOperation {
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: GroupVersionKind;
}

export interface SwaggerDocument {
  definitions: Record<string, SwaggerSchema>;
  paths: Record<string, Record<string, unknown>>;
}

/** One field of a message in `protobuf-fields.json`. */
export interface ProtoField {
  label: 'optional' | 'repeated' | 'map';
  name: string;
  number: number;
  /** A scalar (`int32`), a message relative to the message's package (`ObjectMeta`) or absolute (`.k8s.io...`), or `map<string,V>`. */
  type: string;
}

/** `protobuf-fields.json`: full message name (without a leading dot) to its fields in declaration order. */
export type ProtoMessages = Record<string, readonly ProtoField[]>;

/** A node of a Kapi schema file (see schemas/README.md). Keys are ordered when serialized. */
export type KapiSchema = { [key: string]: unknown };

/** Where a schema file lives: `schemas/<folder>/<version>/<name>.json`. */
export interface Location {
  folder: string;
  version: string;
  name: string;
}

/** Findings worth a human's attention; the import still succeeds. */
export interface ImportNotes {
  /** `Definition.property`: swagger properties left out because no Protobuf field carries them. */
  droppedProperties: string[];
  /** `Message.field`: Protobuf fields left out because swagger does not have them (version skew). */
  skippedProtoFields: string[];
  /** Anything else unexpected (type mismatches between the two inputs). */
  warnings: string[];
}
