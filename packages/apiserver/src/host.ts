import type { APIResourceDiscovery, KubeObject, ResourceInfo } from '@kapi/apimachinery';
import type { UserInfo } from './admission/types.js';
import type { AuthorizerHost } from './auth/host.js';
import type { Authenticator, AuthorizationAttributes, Decision } from './auth/types.js';
import type { RequestGate } from './limits/gate.js';
import type { LogSink } from './logging/types.js';
import type { ApiServerMetrics } from './metrics/index.js';
import type { RequestContext } from './registry/context.js';
import type { GroupPlugin } from './plugin.js';
import type { ObjectEvents } from './registry/informer.js';
import type { ResourceEntry } from './registry/resources.js';
import type { StoredValue } from './storage/stored-value.js';

/** The request limits a server runs with, kube's defaults filled in (0: no limit). */
export interface ServerLimits {
  /** `--max-requests-inflight` */
  maxRequestsInflight: number;
  /** `--max-mutating-requests-inflight` */
  maxMutatingRequestsInflight: number;
  /** `--request-timeout`, in ms */
  requestTimeoutMs: number;
}

/**
 * What createApiServer lends a plugin that hooks into it (GroupPlugin.install): the server's store and registry,
 * its lifecycle, its metrics and log, and the places the request path lets a plugin take part in. As
 * apiextensions-apiserver and kube-aggregator wrap k8s.io/apiserver, extensions plug in here rather than into the
 * core's code.
 */
export interface PluginHost extends AuthorizerHost {
  log: LogSink;
  metrics: ApiServerMetrics;
  limits: ServerLimits;
  /** Runs `hook` in `stop()`, before storage is closed. */
  onStop(hook: () => void | Promise<void>): void;
  /**
   * Decides which requests run, wait or are turned away in place of the in-flight limits (API Priority and
   * Fairness). One gate per server: a second call throws.
   */
  setRequestGate(gate: RequestGate): void;
  /**
   * Calls `onChange` (coalesced) whenever objects of `entry` change, on this server or another sharing its
   * storage, from `start()` until `stop()`; and once at start. `only` narrows it to one namespace, or one object
   * (a controller that follows one ConfigMap need not run on every write of every ConfigMap).
   */
  onObjectsChange(entry: ResourceEntry, onChange: () => void, only?: { namespace?: string; name?: string }): void;
  /**
   * Follows every object of `entry` as kube's informers do, from `start()` until `stop()`: `reset` with all of them,
   * then each change; `reset` again after any gap in the watch. For controllers that need each change (the garbage
   * collector), not only that something changed.
   */
  watchObjects(entry: ResourceEntry, handler: ObjectEvents): void;
  /**
   * A garbage collector runs (kube's `EnableGarbageCollection`): deletes then follow DeleteOptions' propagationPolicy
   * and orphanDependents by setting the `orphan` and `foregroundDeletion` finalizers, as kube's Store does.
   */
  enableGarbageCollection(): void;
  /** How many objects of a resource are stored, as the watch cache counts them; undefined when not known. */
  objectCount(entry: ResourceEntry): number | undefined;
  /**
   * Serves GET of a non-resource path (a debug dump, say), after authentication, authorization (RBAC's
   * `nonResourceURLs`) and the request gate, as the server's own paths are.
   */
  addPath(path: string, handler: (request: Request) => Response | Promise<Response>): void;
  /**
   * Adds a way to authenticate requests, tried after the server's own authenticators (kube's service-account
   * tokens); TokenReview asks it too. An authenticator returns undefined for credentials it does not know.
   */
  addAuthenticator(authenticator: Authenticator): void;
  /**
   * Serves a subresource of a resource the plugin's group declares (`pods/eviction`, `certificatesigningrequests/
   * approval`), or a virtual resource with no stored objects of its own (`bindings`: no `subresource`), with the
   * verbs its discovery lists, after authentication, authorization and the request gate.
   */
  addSubresource(target: SubresourceTarget, action: SubresourceAction): void;
  /**
   * Answers get and list of a resource the plugin's group declares from `resource` instead of storage: objects
   * computed on every read and never stored (kube's componentstatuses). The server does the rest as for a stored
   * resource: authentication, authorization and the request gate, 404 for a name `get` does not know, the list's
   * label and field selectors (the kind's field labels), Table, PartialObjectMetadata and every media type as
   * negotiated, the version's deprecation warning. Other verbs are 405. One source per resource: a second call throws.
   */
  addComputedResource(target: ComputedTarget, resource: ComputedResource): void;
  /**
   * A value the plugin keeps in the server's storage at `/registry/<path>`, beside the resources and shared by every
   * server on that storage (kube's `ranges/servicenodeports`, the node port bitmap), changed by compare-and-swap.
   * `path` must not fall under a resource's key prefix.
   */
  storedValue(path: string): StoredValue;
  /**
   * One read of the storage backend, the one the `etcd` check of /readyz and /healthz makes: resolves when the
   * backend answers, rejects with why not.
   */
  probeStorage(): Promise<void>;
  /**
   * Asks the server's authorizers (once it serves), for checks a request needs beyond its own verb: approving a
   * CertificateSigningRequest needs `approve` on its signer.
   */
  authorize(attributes: AuthorizationAttributes): Promise<Decision>;
  /**
   * Serves a group's resources from now on, while the server runs: kinds that come and go (a
   * CustomResourceDefinition's). Resolves once the watch cache holds their collections; from then on they are
   * served on every path shape and listed by discovery and OpenAPI. Throws, serving none, when one of its resources
   * is already served. With `replaces`, the new group takes the place of one installed earlier in one step (a
   * changed CRD): collections both share keep their cache and their watchers, unless `refresh` asks for them to
   * be read again (the kind's schema changed: its defaults apply to every object; open watches end). The plugin's
   * `install` is not called: the caller is already a plugin.
   */
  installGroup(plugin: GroupPlugin, options?: { replaces?: InstalledGroup; refresh?: boolean }): Promise<InstalledGroup>;
  /**
   * The served resources equivalent to `resource` (kube's EquivalentResourceMapper, what admission's
   * `matchPolicy: Equivalent` matches): the other versions of the resource and the resources stored with it (core
   * and events.k8s.io Events), `resource` itself not included.
   */
  equivalentResources(resource: ResourceInfo): ResourceInfo[];
  /**
   * `obj`, of a kind the server serves, in the version of `to` (an equivalent resource), converted through its
   * kind's storage version as a request to `to` would read it. StatusError when it cannot be converted.
   */
  convertObject(obj: KubeObject, to: ResourceInfo): Promise<KubeObject>;
  /**
   * Lets the plugin take requests in the server's place (kube-aggregator's proxy in front of the generic server):
   * `router` is asked about every request's path after authentication, authorization, audit and the request gate,
   * before any of the server's own routes (discovery and resources alike); a handler it returns answers the request
   * (streaming its body as it likes), undefined leaves it to the server. Routers are asked in the order added.
   */
  routeRequests(router: RequestRouter): void;
  /**
   * Adds group versions served by other servers to discovery (`/apis`, `/apis/<group>`, aggregated `/apis`) and
   * orders every group and version by the priorities it gives, as kube-aggregator's discovery does. One source per
   * server: a second call throws.
   */
  setDiscoverySource(source: DiscoverySource): void;
  /**
   * Adds OpenAPI documents of group versions served by other servers to `/openapi/v3` (by path, in place of the
   * server's own) and `/openapi/v2` (merged). One source per server: a second call throws.
   */
  setOpenAPISource(source: OpenAPISource): void;
}

/** Picks the handler of a request the plugin serves itself, by its URL path; undefined: the server serves it. */
export type RequestRouter = (path: string) => RequestDelegate | undefined;

/**
 * Answers one request a router took; `user` is who the server authenticated (after impersonation). A StatusError
 * it throws is answered as the server answers errors (a Status in the format the client accepts).
 */
export type RequestDelegate = (request: Request, user: UserInfo) => Response | Promise<Response>;

/** Group versions served elsewhere, as discovery shows them. */
export interface DiscoverySource {
  /** What discovery shows now; the same object while nothing changed (documents are rebuilt when it changes). */
  current(): ExternalDiscovery;
}

export interface ExternalDiscovery {
  /**
   * Group versions another server serves, with their resources in aggregated form; each takes the place of the
   * server's own group version of the same name.
   */
  versions: readonly ExternalGroupVersion[];
  /**
   * How groups and versions are ordered (APIService `groupPriorityMinimum` and `versionPriority`), by
   * `group/version` (`v1` for core); a group sorts by the highest of its versions', higher first, then by name.
   * Versions without one go after those with one.
   */
  priorities: ReadonlyMap<string, { groupPriorityMinimum: number; versionPriority: number }>;
}

export interface ExternalGroupVersion {
  group: string;
  version: string;
  /**
   * Its resources as the other server last listed them; undefined when they are not known yet (the group version
   * is listed by `/apis` but left out of aggregated discovery, as kube does for an APIService never reached).
   */
  resources?: readonly APIResourceDiscovery[];
  /** `Stale` when the other server could not be reached since they were read (aggregated discovery's freshness). */
  freshness?: 'Current' | 'Stale';
}

/** OpenAPI documents of group versions served elsewhere. */
export interface OpenAPISource {
  /** The documents now; the same object while nothing changed. */
  current(): ExternalOpenAPI;
}

export interface ExternalOpenAPI {
  /** OpenAPI v3 documents by their path under /openapi/v3 (`apis/wardle.example.com/v1alpha1`). */
  v3: ReadonlyMap<string, object>;
  /** Swagger 2.0 documents whose paths and definitions are merged into /openapi/v2 (the server's own win on a clash). */
  v2: readonly object[];
}

/** A group installed while the server runs. */
export interface InstalledGroup {
  readonly entries: readonly ResourceEntry[];
  /**
   * Stops serving its resources: requests for them get 404 and their open watches end; the stored objects stay.
   */
  uninstall(): void;
}

/** Which subresource an action serves: the parent resource by group and plural, and the subresource's name. */
export interface SubresourceTarget {
  group: string;
  resource: string;
  /** Empty or left out: the action serves the resource itself (a virtual, create-only resource). */
  subresource?: string;
}

/** Which resource a computed source serves: by group and plural, in every version the group serves it. */
export interface ComputedTarget {
  group: string;
  resource: string;
}

/**
 * The objects of a computed resource, computed anew on every read (kube's rest.Getter and rest.Lister). Objects
 * need only their metadata and fields: the server sets apiVersion and kind. `ctx` is the request's (its user, its
 * deadline).
 */
export interface ComputedResource {
  /** The object named `name`, or undefined when there is none (the client gets 404). Called on every get. */
  get(ctx: RequestContext, name: string): Promise<KubeObject | undefined>;
  /** Every object, in the order they are listed; the server then applies the request's selectors. Called on every list. */
  list(ctx: RequestContext): Promise<KubeObject[]>;
}

/** One request to a plugin's subresource. */
export interface SubresourceCall {
  /** The request's context: the parent resource's entry, namespace, user, dryRun, the subresource. */
  ctx: RequestContext;
  /** The object the path names (`pods/NAME/eviction`), empty for a request to a collection. */
  name: string;
  /** The verb the request asks for (`create`, `update`, `get`, ...). */
  verb: string;
  /** The request body decoded from its media type (JSON, YAML, CBOR, or Protobuf as the kind the subresource takes), undefined when empty. */
  body(): Promise<unknown>;
}

/** A subresource's answer: the object the client reads (in the format it negotiated) and the status code. */
export type SubresourceAction = (call: SubresourceCall) => Promise<{ status: number; object: object }>;
