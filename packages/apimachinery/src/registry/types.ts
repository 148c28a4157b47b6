/** Scope of a resource: one object per name per namespace, or per cluster. */
export type ResourceScope = 'Namespaced' | 'Cluster';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** One Table column, like a CustomResourceDefinition's additionalPrinterColumns entry. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
  format?: string;
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** A subresource other than status and scale (for example pods/eviction), with the kind it accepts. */
export interface OtherSubresource {
  name: string;
  group?: string;
  version?: string;
  kind?: string;
  verbs: Verb[];
}

/**
 * Strategic-merge-patch and server-side-apply metadata of one field, keyed in {@link ResourceInfo.patchMeta} by
 * a dotted path from the object root (`spec.template.spec.containers`); list elements add no segment.
 */
export interface FieldPatchMeta {
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  mapType?: 'atomic' | 'granular';
}

/** Everything the API server needs to know about one resource; generated from its schema's header. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  scope: ResourceScope;
  shortNames: string[];
  categories: string[];
  /** kube's name rule of the kind (ValidateObjectMeta's nameFn); a DNS-1123 subdomain when absent. */
  nameValidation?: 'DNS1123Subdomain' | 'DNS1123Label' | 'DNS1035Label' | 'PathSegment';
  /** Whether a PUT of a missing object creates it (kube's AllowCreateOnUpdate); true when absent. A strategy may say otherwise. */
  allowCreateOnUpdate?: boolean;
  /** Whether an update may leave out metadata.resourceVersion (kube's AllowUnconditionalUpdate); true when absent. A strategy may say otherwise. */
  allowUnconditionalUpdate?: boolean;
  verbs: Verb[];
  subresources: {
    status?: Record<string, never>;
    scale?: ScaleSubresource;
    others?: OtherSubresource[];
  };
  printerColumns: PrinterColumn[];
  /** Set when the version is deprecated: the text of the `Warning` header every request to it gets. */
  deprecationWarning?: string;
  /** The release a deprecated version goes away in (`1.29`): apiserver_requested_deprecated_apis' removed_release. */
  removedRelease?: string;
  /** Full Protobuf message names of the kind and of its list. */
  protobuf: { message: string; listMessage: string };
  /** Patch metadata by field path; present where the schema has x-kubernetes-patch-* or list/map types. */
  patchMeta: Record<string, FieldPatchMeta>;
}
