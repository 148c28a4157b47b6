import type { ProtoMessages, SwaggerSchema } from '../types.js';

/**
 * meta.k8s.io/v1 Table is in neither input: upstream marks it `+protobuf=false` and serves it only as JSON.
 * Its JSON shape follows k8s.io/apimachinery/pkg/apis/meta/v1/types.go; the Protobuf field numbers below are
 * Kapi-assigned (in Go struct order) so that the generator can treat it like any other message.
 */
const PKG = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string) => ({ $ref: `#/definitions/${PKG}.${name}` });
const KAPI_NUMBERS = ' Upstream serves it only as JSON (it has no Protobuf tags); its Protobuf field numbers are Kapi-assigned.';

export const TABLE_DEFINITIONS: Record<string, SwaggerSchema> = {
  [`${PKG}.Table`]: {
    description:
      'Table is a tabular representation of a set of API resources. The server transforms the object into a set of preferred columns for quickly reviewing the objects.' +
      KAPI_NUMBERS,
    type: 'object',
    required: ['columnDefinitions', 'rows'],
    properties: {
      kind: {
        description:
          'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
        type: 'string',
      },
      apiVersion: {
        description:
          'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
        type: 'string',
      },
      metadata: {
        description:
          'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
        ...ref('ListMeta'),
      },
      columnDefinitions: {
        description:
          'columnDefinitions describes each column in the returned items array. The number of cells per row will always match the number of column definitions.',
        type: 'array',
        items: ref('TableColumnDefinition'),
      },
      rows: {
        description: 'rows is the list of items in the table.',
        type: 'array',
        items: ref('TableRow'),
      },
    },
    'x-kubernetes-group-version-kind': [{ group: 'meta.k8s.io', version: 'v1', kind: 'Table' }],
  },
  [`${PKG}.TableColumnDefinition`]: {
    description: 'TableColumnDefinition contains information about a column returned in the Table.' + KAPI_NUMBERS,
    type: 'object',
    required: ['name', 'type', 'format', 'description', 'priority'],
    properties: {
      name: { description: 'name is a human readable name for the column.', type: 'string' },
      type: {
        description:
          'type is an OpenAPI type definition for this column, such as number, integer, string, or array. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for more.',
        type: 'string',
      },
      format: {
        description:
          "format is an optional OpenAPI type modifier for this column. A format modifies the type and imposes additional rules, like date or time formatting for a string. The 'name' format is applied to the primary identifier column which has type 'string' to assist in clients identifying column is the resource name. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for more.",
        type: 'string',
      },
      description: { description: 'description is a human readable description of this column.', type: 'string' },
      priority: {
        description:
          'priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority. Columns that may be omitted in limited space scenarios should be given a higher priority.',
        type: 'integer',
        format: 'int32',
      },
    },
  },
  [`${PKG}.TableRow`]: {
    description: 'TableRow is an individual row in a table.' + KAPI_NUMBERS,
    type: 'object',
    required: ['cells'],
    properties: {
      cells: {
        description:
          'cells will be as wide as the column definitions array and may contain strings, numbers (float64 or int64), booleans, simple maps, lists, or null. See the type field of the column definition for a more detailed description.',
        type: 'array',
        items: { 'x-kubernetes-preserve-unknown-fields': true },
      },
      conditions: {
        description:
          "conditions describe additional status of a row that are relevant for a human user. These conditions apply to the row, not to the object, and will be specific to table output. The only defined condition type is 'Completed', for a row that indicates a resource that has run to completion and can be given less visual priority.",
        type: 'array',
        items: ref('TableRowCondition'),
      },
      object: {
        description:
          'This field contains the requested additional information about each object based on the includeObject policy when requesting the Table. If "None", this field is empty, if "Object" this will be the default serialization of the object for the current API version, and if "Metadata" (the default) will contain the object metadata. Check the returned kind and apiVersion of the object before parsing. The media type of the object will always match the enclosing list - if this as a JSON table, these will be JSON encoded objects.',
        $ref: '#/definitions/io.k8s.apimachinery.pkg.runtime.RawExtension',
      },
    },
  },
  [`${PKG}.TableRowCondition`]: {
    description: 'TableRowCondition allows a row to be marked with additional information.' + KAPI_NUMBERS,
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: {
        description:
          "Type of row condition. The only defined value is 'Completed' indicating that the object this row represents has reached a completed state and may be given less visual priority than other rows. Clients are not required to honor any conditions but should be consistent where possible about handling the conditions.",
        type: 'string',
      },
      status: { description: 'Status of the condition, one of True, False, Unknown.', type: 'string' },
      reason: { description: "(brief) machine readable reason for the condition's last transition.", type: 'string' },
      message: { description: 'Human readable message indicating details about last transition.', type: 'string' },
    },
  },
};

const M = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** The Kapi-assigned Protobuf layout of the Table messages, merged into the upstream field list. */
export const TABLE_MESSAGES: ProtoMessages = {
  [`${M}.Table`]: [
    { label: 'optional', name: 'metadata', number: 1, type: 'ListMeta' },
    { label: 'repeated', name: 'columnDefinitions', number: 2, type: 'TableColumnDefinition' },
    { label: 'repeated', name: 'rows', number: 3, type: 'TableRow' },
  ],
  [`${M}.TableColumnDefinition`]: [
    { label: 'optional', name: 'name', number: 1, type: 'string' },
    { label: 'optional', name: 'type', number: 2, type: 'string' },
    { label: 'optional', name: 'format', number: 3, type: 'string' },
    { label: 'optional', name: 'description', number: 4, type: 'string' },
    { label: 'optional', name: 'priority', number: 5, type: 'int32' },
  ],
  [`${M}.TableRow`]: [
    // A cell is any JSON value; on the wire it is its JSON encoding.
    { label: 'repeated', name: 'cells', number: 1, type: 'bytes' },
    { label: 'repeated', name: 'conditions', number: 2, type: 'TableRowCondition' },
    { label: 'optional', name: 'object', number: 3, type: '.k8s.io.apimachinery.pkg.runtime.RawExtension' },
  ],
  [`${M}.TableRowCondition`]: [
    { label: 'optional', name: 'type', number: 1, type: 'string' },
    { label: 'optional', name: 'status', number: 2, type: 'string' },
    { label: 'optional', name: 'reason', number: 3, type: 'string' },
    { label: 'optional', name: 'message', number: 4, type: 'string' },
  ],
};
