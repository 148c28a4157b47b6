import type { MessageDoc } from './from-proto.js';

/**
 * apidiscovery.k8s.io/v2 is in protobuf-fields.json but not in swagger. Its documentation, required fields and
 * kinds follow upstream's Go types (k8s.io/api/apidiscovery/v2/types.go).
 */
const GROUP_VERSION = { group: 'apidiscovery.k8s.io', version: 'v2' };
const PKG = 'k8s.io.api.apidiscovery.v2';

const VERBS =
  'verbs is a list of supported API operation types (this includes but is not limited to get, list, watch, create, update, patch, delete, deletecollection, and proxy).';

export const APIDISCOVERY_DOCS: Record<string, MessageDoc> = {
  [`${PKG}.APIGroupDiscoveryList`]: {
    kind: { ...GROUP_VERSION, kind: 'APIGroupDiscoveryList' },
    description:
      'APIGroupDiscoveryList is a resource containing a list of APIGroupDiscovery. This is one of the types able to be returned from the /api and /apis endpoint and contains an aggregated list of API resources (built-ins, Custom Resource Definitions, resources from aggregated servers) that a cluster supports.',
    fields: {
      metadata:
        'ResourceVersion will not be set, because this does not have a replayable ordering among multiple apiservers. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
      items: 'items is the list of groups for discovery. The groups are listed in priority order.',
    },
    required: ['items'],
  },
  [`${PKG}.APIGroupDiscovery`]: {
    kind: { ...GROUP_VERSION, kind: 'APIGroupDiscovery' },
    description:
      'APIGroupDiscovery holds information about which resources are being served for all version of the API Group. It contains a list of APIVersionDiscovery that holds a list of APIResourceDiscovery types served for a version. Versions are in descending order of preference, with the first version being the preferred entry.',
    fields: {
      metadata:
        'Standard object\'s metadata. The only field completed will be name. For instance, resourceVersion will be empty. name is the name of the API group whose discovery information is presented here. name is allowed to be "" to represent the legacy, ungroupified resources. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
      versions:
        'versions are the versions supported in this group. They are sorted in descending order of preference, with the preferred version being the first entry.',
    },
  },
  [`${PKG}.APIVersionDiscovery`]: {
    description:
      'APIVersionDiscovery holds a list of APIResourceDiscovery types that are served for a particular version within an API Group.',
    fields: {
      version: 'version is the name of the version within a group version.',
      resources: 'resources is a list of APIResourceDiscovery objects for the corresponding group version.',
      freshness:
        'freshness marks whether a group version\'s discovery document is up to date. "Current" indicates the discovery document was recently refreshed. "Stale" indicates the discovery document could not be retrieved and the returned discovery document may be significantly out of date. Clients that require the latest version of the discovery information be retrieved before performing an operation should not use the aggregated document',
    },
    required: ['version'],
  },
  [`${PKG}.APIResourceDiscovery`]: {
    description: 'APIResourceDiscovery provides information about an API resource for discovery.',
    fields: {
      resource:
        'resource is the plural name of the resource. This is used in the URL path and is the unique identifier for this resource across all versions in the API group. Resources with non-empty groups are located at /apis/<APIGroupDiscovery.objectMeta.name>/<APIVersionDiscovery.version>/<APIResourceDiscovery.Resource> Resources with empty groups are located at /api/v1/<APIResourceDiscovery.Resource>',
      responseKind:
        'responseKind describes the group, version, and kind of the serialization schema for the object type this endpoint typically returns. APIs may return other objects types at their discretion, such as error conditions, requests for alternate representations, or other operation specific behavior. This value will be null or empty if an APIService reports subresources but supports no operations on the parent resource',
      scope: 'scope indicates the scope of a resource, either Cluster or Namespaced',
      singularResource:
        'singularResource is the singular name of the resource. This allows clients to handle plural and singular opaquely. For many clients the singular form of the resource will be more understandable to users reading messages and should be used when integrating the name of the resource into a sentence. The command line tool kubectl, for example, allows use of the singular resource name in place of plurals. The singular form of a resource should always be an optional element - when in doubt use the canonical resource name.',
      verbs: VERBS,
      shortNames: 'shortNames is a list of suggested short names of the resource.',
      categories:
        "categories is a list of the grouped resources this resource belongs to (e.g. 'all'). Clients may use this to simplify acting on multiple resources.",
      subresources:
        'subresources is a list of subresources provided by this resource. Subresources are located at /apis/<APIGroupDiscovery.objectMeta.name>/<APIVersionDiscovery.version>/<APIResourceDiscovery.Resource>/name-of-instance/<APIResourceDiscovery.subresources[i].subresource>',
    },
    required: ['resource', 'scope', 'singularResource', 'verbs'],
  },
  [`${PKG}.APISubresourceDiscovery`]: {
    description: 'APISubresourceDiscovery provides information about an API subresource for discovery.',
    fields: {
      subresource:
        'subresource is the name of the subresource. This is used in the URL path and is the unique identifier for this resource across all versions.',
      responseKind:
        'responseKind describes the group, version, and kind of the serialization schema for the object type this endpoint typically returns. Some subresources do not return normal resources, these will have null or empty return types.',
      acceptedTypes:
        'acceptedTypes describes the kinds that this endpoint accepts. Subresources may accept the standard content types or define custom negotiation schemes. The list may not be exhaustive for all operations.',
      verbs: VERBS,
    },
    required: ['subresource', 'verbs'],
  },
};
