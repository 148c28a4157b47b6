import type { FieldError, GroupDefinition, KindConversion, KubeObject, TablePrinter, TypeDefaulter } from '@kapi/apimachinery';
import type { PluginHost } from './host.js';
import type { RequestContext } from './registry/context.js';

/**
 * Per-kind behaviour the generic Store calls (registry/rest.ts owns the order), after mutating admission and
 * before validating admission. On create: prepareForCreate → validate → canonicalize → warnings; on update:
 * prepareForUpdate (main resource only) → validateUpdate (or validate) → canonicalize → warnings; on delete:
 * deletionPending → prepareForDelete; beginCreate and beginUpdate run last, just before the write. Hooks may mutate the object they are given (that is their purpose) and
 * must not touch `old`. Everything else (metadata, storage, preconditions, generation) is the Store's job.
 */
export interface Strategy {
  /**
   * Clears fields a client may not set on create (status of kinds with a status subresource, by default); `ctx`
   * says who asks (a CertificateSigningRequest records its requester).
   */
  prepareForCreate?(obj: KubeObject, ctx: RequestContext): void;
  /** Carries over fields a main-resource update may not change (status, by default). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  /**
   * kube's status strategy's PrepareForUpdate: readies a `status` subresource write (the object is the stored one with
   * the client's status) before it is validated; a PersistentVolume's new phase gets its transition time.
   */
  prepareForStatusUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  /**
   * Semantic validation beyond the schema, with kube field paths. `found` are the errors the metadata and schema
   * checks found before it (custom resources skip their CEL rules when one of them blocks, as kube does).
   */
  validate?(obj: KubeObject, found?: readonly FieldError[]): FieldError[];
  /** Validation of an update; `ctx.subresource` says which part of the object the request may change; `found` as for validate. */
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext, found?: readonly FieldError[]): FieldError[];
  /**
   * Subresources that write one part of the object through the store, as `status` does (kube's pods/ephemeralcontainers
   * strategy): for each, the object to store from what the client sent and the stored object (the stored one with
   * only that part taken from the client's). `validateUpdate` then judges it with `ctx.subresource` set. They are
   * served for the verbs the resource's info lists for them (get, update and patch).
   */
  subresourceUpdates?: Record<string, (obj: KubeObject, old: KubeObject) => KubeObject>;
  /**
   * Report every schema error beside the strategy's (custom resources: the schema and the CEL rules are independent
   * checks). By default a schema error is left out where the strategy reports one of the same type at the same field:
   * the strategy's is kube's message for what the schema checks coarsely.
   */
  independentSchemaErrors?: boolean;
  /**
   * Whether the schema's `required` lists are enforced (default true). kube's decoding leaves a missing field at its
   * zero value, so that only the kind's own validation reports one: a strategy that checks every required field
   * itself, with kube's messages (CustomResourceDefinition), turns this off.
   */
  schemaRequired?: boolean;
  /**
   * The kind's Go types that decode themselves, by the Go type name its OpenAPI gives (`v1.JSONSchemaPropsOrBool`),
   * with the error their decoder answers for a value of the wrong type, which kube returns as it is (400).
   */
  goDecodeErrors?: Record<string, string>;
  /**
   * What kube's decoding of a request body into the kind's Go types does besides refusing wrong types: values its own
   * decoders drop without a word are dropped here. Called on every body (create, update, the result of a patch)
   * before its types are checked.
   */
  decode?(obj: KubeObject): void;
  /** Normalizes the object before it is stored. */
  canonicalize?(obj: KubeObject): void;
  /** Warnings returned to the client in `Warning` headers (kube's WarningsOnCreate/WarningsOnUpdate); `old` on update. */
  warnings?(obj: KubeObject, old?: KubeObject, ctx?: RequestContext): string[];
  /** Whether objects carry metadata.generation (default: kinds whose schema has a `spec`; custom resources always). */
  tracksGeneration?: boolean;
  /** Whether PUT may create a missing object (default: the resource header's `allowCreateOnUpdate`, else true). */
  allowCreateOnUpdate?: boolean;
  /**
   * Whether an update may leave out `metadata.resourceVersion` and so overwrite whatever is stored (true for most
   * kinds, as kube's AllowUnconditionalUpdate). When false, such an update (a PUT, or a patch that removes the
   * resourceVersion) is refused with kube's 422 `metadata.resourceVersion: Invalid value: 0x0: must be specified for
   * an update`, on the kind's subresources too. Default: the resource header's `allowUnconditionalUpdate`, else true.
   */
  allowUnconditionalUpdate?: boolean;
  /**
   * Whether a delete must wait (beyond metadata.finalizers, which always hold an object back): namespaces wait
   * for `spec.finalizers`. Called on the stored object; must not mutate it.
   */
  deletionPending?(obj: KubeObject): boolean;
  /** Called on the first delete of an object that is held back, after deletionTimestamp is set (Namespace: phase Terminating). */
  prepareForDelete?(obj: KubeObject): void;
  /** DELETE answers with the object itself rather than a Success Status (kube's ReturnDeletedObject). */
  returnDeletedObject?: boolean;
  /**
   * The field-selector labels the kind supports beyond metadata.name and metadata.namespace (kube's GetAttrs), each
   * with how its value is read from an object; other labels in a field selector are 400.
   */
  fieldLabels?: Record<string, (obj: KubeObject) => string>;

  /**
   * kube's BeginCreate: asynchronous work a create needs once the object is validated and named, just before it
   * is stored (a Service's cluster IP and node ports); may mutate the object and throw a StatusError. What it
   * returns is called once the write succeeded or failed (to give back what it took).
   */
  beginCreate?(obj: KubeObject, ctx: RequestContext): Promise<WriteFinisher | void>;
  /** kube's BeginUpdate: as beginCreate, for an update of `old` (main resource and subresources alike). */
  beginUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): Promise<WriteFinisher | void>;
  /**
   * kube's AfterDelete: called once an object is gone from storage (a delete, or an update that removed its last
   * finalizer; not on a dry run), with the object as it was, before the client is answered: to give back what it
   * held (a Service's node ports). It must not throw; what fails is for a repair loop to mend.
   */
  afterDelete?(obj: KubeObject, ctx: RequestContext): Promise<void>;
}

/** Settles what a strategy's beginCreate or beginUpdate took: kept when the write succeeded, given back if not. */
export type WriteFinisher = (succeeded: boolean) => void | Promise<void>;

/**
 * A group package as a server installs it: its generated definition plus the hand-written behaviour of its kinds
 * (kube's pkg/registry/<group>/<kind>), which the group package exports as its `plugin`. The core knows no
 * concrete kind but Namespace, whose lifecycle namespaced storage rests on.
 */
export interface GroupPlugin {
  definition: GroupDefinition;
  /** Strategies by kind. */
  strategies?: Record<string, Strategy>;
  /**
   * How `kubectl get` shows a kind beyond its printer columns' JSONPath (kube's Go table printers), by kind: the
   * computed cells and row conditions.
   */
  printers?: Record<string, TablePrinter>;
  /**
   * Defaulting that depends on other fields (kube's SetDefaults_<Type>), by field-tree type (`v1/Container`),
   * after the schemas' constant defaults. They apply wherever the type appears, in every group's kinds (apps'
   * Deployment embeds core's PodSpec), on create, update, patch and apply.
   */
  defaulters?: Record<string, TypeDefaulter>;
  /**
   * Field-tree types (`v1/PodSpec`) the plugin's validation checks wholly as kube's Go validation does, wherever
   * they appear (core's PodSpec in apps' Deployments): the schema's `required` lists inside them are not enforced,
   * as kube's decoding leaves a missing field at its zero value for that validation to judge (a pod's iscsi volume
   * without `lun` uses lun 0; a topology spread constraint without `maxSkew` is "must be greater than zero").
   */
  validatedTypes?: string[];
  /**
   * How objects of a kind served in several versions are converted between them (kube's conversion), by kind: every
   * object is stored in the conversion's storage version and answered in the version a request names.
   */
  conversions?: Record<string, KindConversion>;
  /**
   * Kinds whose objects are stored with another group's resource (kube's cohabiting resources), by kind: the
   * kind is served from that resource's collection (`{ group: '', resource: 'events' }`: `/registry/events/`), so
   * an object written through either group is read, listed and watched through both. The kind needs a conversion
   * whose `storageApiVersion` is the other group's stored apiVersion. Authorization, discovery and admission stay
   * the kind's own group's; encryption at rest and storage metrics follow the stored resource.
   */
  storedAs?: Record<string, StoredResource>;
  /**
   * Hooks the plugin into the server that installs it (controllers, admission, the request gate, subresources), once, while
   * createApiServer builds the server: its store and registry exist, nothing is served yet. A group that is only
   * data needs none.
   */
  install?(host: PluginHost): void;
}

/** A group's resource another group's kind is stored with (GroupPlugin.storedAs). */
export interface StoredResource {
  /** API group (`""` for core). */
  group: string;
  /** Plural resource name (`events`). */
  resource: string;
}

/** The versions of one kind and how its objects go from one to another; defined in @kapi/apimachinery. */
export type { KindConversion };

/** Wraps a generated group (`import { group } from '@kapi/api-apps'`) as a plugin. */
export function groupPlugin(definition: GroupDefinition, strategies: Record<string, Strategy> = {}): GroupPlugin {
  return { definition, strategies };
}
