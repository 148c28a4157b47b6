import type { MessageDoc } from './from-proto.js';
import type { SwaggerSchema } from '../types.js';

/** meta/v1 and runtime types that protobuf-fields.json has but swagger does not define. */
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const META_V1 = { group: 'meta.k8s.io', version: 'v1' };

/** Messages synthesized from their Protobuf fields. */
export const META_DOCS: Record<string, MessageDoc> = {
  [`${META}.GroupVersionKind`]: {
    description:
      'GroupVersionKind unambiguously identifies a kind.  It doesn\'t anonymously include GroupVersion to avoid automatic coercion.  It doesn\'t use a GroupVersion to avoid custom marshalling',
    fields: {},
    required: ['group', 'version', 'kind'],
  },
  [`${META}.PartialObjectMetadata`]: {
    kind: { ...META_V1, kind: 'PartialObjectMetadata' },
    description:
      'PartialObjectMetadata is a generic representation of any object with ObjectMeta. It allows clients to get access to a particular ObjectMeta schema without knowing the details of the version.',
    fields: {
      metadata:
        "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    },
  },
  [`${META}.PartialObjectMetadataList`]: {
    kind: { ...META_V1, kind: 'PartialObjectMetadataList' },
    description: 'PartialObjectMetadataList contains a list of objects containing only their metadata',
    fields: {
      metadata:
        'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
      items: 'items contains each of the included items.',
    },
    required: ['items'],
  },
};

/** Hand-written swagger-style definitions, by definition name. */
export const META_DEFINITIONS: Record<string, SwaggerSchema> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration': {
    description:
      'Duration is a wrapper around time.Duration which supports correct marshaling to YAML and JSON. In particular, it marshals into strings, which can be used as map keys in json.',
    type: 'string',
  },
  'io.k8s.apimachinery.pkg.runtime.TypeMeta': {
    description:
      'TypeMeta is shared by all top level objects. It is provided by apimachinery\'s runtime package for convenience; objects inline it. Its Protobuf message carries the type of an encoded object inside the envelope (runtime.Unknown).',
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
    },
  },
  'io.k8s.apimachinery.pkg.runtime.Unknown': {
    description:
      'Unknown allows api objects with unknown types to be passed-through. This can be used to deal with the API objects from a plug-in. Unknown objects still have functioning TypeMeta features-- kind, version, etc. metadata and field mutatation. It is the Protobuf envelope of every object (after the 4-byte "k8s\\x00" prefix).',
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      raw: {
        description:
          'Raw will hold the complete serialized object which couldn\'t be matched with a registered type. Most likely, nothing should be done with this except for passing it through the system.',
        type: 'string',
        format: 'byte',
      },
      contentEncoding: {
        description: "ContentEncoding is encoding used to encode 'Raw' data. Unspecified means no encoding.",
        type: 'string',
      },
      contentType: {
        description: "ContentType is serialization method used to serialize 'Raw'. Unspecified means ContentTypeJSON.",
        type: 'string',
      },
    },
  },
};
