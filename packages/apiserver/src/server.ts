import { newPathNotFound, type KubeObject } from '@kapi/apimachinery';
import type { StorageBackend } from '@kapi/storage';
import { setMaxListeners } from 'node:events';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { TracerProvider } from '@opentelemetry/api';
import type { X509Certificate } from 'node:crypto';
import { startCompactor, type Compactor } from '@kapi/storage';
import { createAdmissionChain } from './admission/chain.js';
import { createWatchCache, type WatchCacheOptions } from './cacher/cacher.js';
import type { AdmissionPlugin, UserInfo } from './admission/types.js';
import { alwaysAllow } from './auth/always-allow.js';
import { ANONYMOUS } from './auth/authenticators.js';
import { createAccessFilter } from './auth/filter.js';
import type { AuthorizerFactory } from './auth/host.js';
import type { Authenticator, Authorizer, PeerCertificate } from './auth/types.js';
import { unionAuthorizer } from './auth/union.js';
import { auditLog, type AuditPolicy, type AuditSink } from './audit/index.js';
import { createDiscoveryRoutes } from './endpoints/discovery-routes.js';
import { createHealthRoutes, serverHealthChecks } from './endpoints/health.js';
import { createOpenAPIRoutes } from './endpoints/openapi-routes.js';
import { requestAuditId } from './endpoints/audit-id.js';
import { requestEntry } from './endpoints/entry.js';
import { filterChain } from './endpoints/filter-chain.js';
import type { LogSink } from './logging/types.js';
import { createMetricsRoute } from './endpoints/metrics-route.js';
import { collectCacheState } from './metrics/collectors.js';
import { createApiServerMetrics, instrumentedStorage, requestMetrics, type ApiServerMetrics } from './metrics/index.js';
import { tracedStorage, withTracing } from './tracing/index.js';
import { httpLog } from './logging/httplog.js';
import { offeredMediaTypes } from './endpoints/media/index.js';
import { negotiateResponse, type ResponseFormat } from './endpoints/negotiate.js';
import { parseRequestInfo, type RequestInfo } from './endpoints/request-info.js';
import { requestFacts } from './limits/long-running.js';
import { pluginSubresourceHandler } from './endpoints/plugin-subresource.js';
import { createResourceHandler, specialKey, type SubresourceHandler } from './endpoints/resource-handler.js';
import { errorResponse } from './endpoints/respond.js';
import { createNamespaceController } from './namespaces/controller.js';
import { namespaceLifecycle } from './namespaces/admission.js';
import { maxBodySize, maxInFlight, memoryBudget, requestTimeout, type RequestLimits } from './limits/index.js';
import { gateRequests, type RequestGate } from './limits/gate.js';
import { limitedRequest, readRequestBody, requestDeadlineOf, type NodeBodyStream } from './limits/request-body.js';
import { DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT } from './limits/inflight.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './limits/timeout.js';
import type { DiscoverySource, InstalledGroup, OpenAPISource, PluginHost, RequestRouter, ServerLimits } from './host.js';
import { watchChanges, watchObjects } from './registry/informer.js';
import type { GroupPlugin } from './plugin.js';
import { createResourceRegistry, type ResourceEntry } from './registry/resources.js';
import { subresourceUpdate } from './registry/rest.js';
import { convertObject } from './registry/versions.js';
import { createStore, type RequestContext, type Store } from './registry/store.js';
import { computedStore } from './registry/computed.js';
import { createCacheDelegator } from './cacher/delegator.js';
import { createObjectStorage } from './storage/object-storage.js';
import { storageHistoryBudget } from './storage/history-budget.js';
import { storedValue } from './storage/stored-value.js';
import { encryptedStorage, type EncryptionConfig } from './encryption/index.js';
import { reviewAnswers, reviewHandler } from './subresources/reviews.js';
import { scaleHandler } from './subresources/scale.js';
import { defaultVersionInfo, type VersionInfo } from './version.js';

/** The default of `storageHistoryBytes`. */
export const DEFAULT_STORAGE_HISTORY_BYTES = 1024 ** 3;

/** A controller that runs inside the server (ApiServerOptions.controllers). */
export interface ServerController {
  name: string;
  /** Hooks the controller into the server, as GroupPlugin.install does, while createApiServer builds it. */
  install(host: PluginHost): void;
}

export interface ApiServerOptions {
  storage: StorageBackend;
  /** The API groups to serve (`groupPlugin(group)` for each generated package). */
  plugins: GroupPlugin[];
  /**
   * Controllers that run inside the server and serve no API of their own (kube-controller-manager's, run in process:
   * the garbage collector), installed after the plugins.
   */
  controllers?: ServerController[];
  /** kube-style feature gates (`--feature-gates`), by name. */
  featureGates?: Record<string, boolean>;
  /**
   * `--api-audiences`: the audiences of this API. Credentials without an audience of their own (client certificates,
   * static tokens) are good for these only: a TokenReview that asks for another audience does not accept them.
   */
  apiAudiences?: string[];
  /** Admission plugins after the built-in ones, in order. */
  admission?: AdmissionPlugin[];
  version?: VersionInfo;
  /**
   * Log sink (`createLogger` writes kube's klog text or JSON); `level` follows kube's -v (0 always shown, higher is
   * chattier). A request's lines carry its audit ID.
   */
  log?: LogSink;
  /**
   * How requests are authenticated, in order (kube's: client certificates, then bearer tokens); the first user
   * found wins. Default none: every request is anonymous.
   */
  authenticators?: Authenticator[];
  /** `--anonymous-auth`: requests without credentials run as system:anonymous. Default true; false answers 401. */
  anonymousAuth?: boolean;
  /**
   * `--authorization-mode`: every request (resource or not) is authorized by these, in order; the first allow or
   * deny decides, and a request nobody allows is 403 Forbidden. Default `[alwaysAllow()]`. Modes that read the
   * server's own objects (`rbacAuthorizer()`) are factories the server calls with its store.
   */
  authorizers?: (Authorizer | AuthorizerFactory)[];
  /** kube-apiserver's request limits (`--max-resource-write-bytes`, `--max-requests-inflight`, ...); kube's defaults. */
  limits?: RequestLimits;
  /** `--audit-log-path`: audit.k8s.io/v1 Events as JSON lines, at `auditPolicy`'s levels. Default none. */
  audit?: AuditSink;
  /** `--audit-policy-file` (loadAuditPolicy): which requests are audited at which level. Default: all at Metadata. */
  auditPolicy?: AuditPolicy;
  /**
   * `--etcd-compaction-interval` in ms (kube's default, 5 minutes): storage history older than one interval is
   * compacted, which bounds the watch history and the lifetime of continue tokens. 0 disables compaction.
   */
  compactionIntervalMs?: number;
  /**
   * Bytes of writes storage may keep as history before it is compacted early (default 1 GiB; 0: only the periodic
   * compaction): a flood of big updates cannot fill the disk between compaction rounds.
   */
  storageHistoryBytes?: number;
  /**
   * kube's `--tracing-config-file`: an OpenTelemetry TracerProvider makes a span of every request (after
   * authentication, as kube's WithTracing) with its storage calls as children. The process needs a context manager
   * and a propagator (NodeTracerProvider.register() installs both). Default none: no spans, no cost.
   */
  tracerProvider?: TracerProvider;
  /** Watch cache tuning (history size, bookmark interval, per-watcher buffer, ...); kube's defaults otherwise. */
  watchCache?: WatchCacheOptions;
  /**
   * `--encryption-provider-config` (loadEncryptionConfig): encryption at rest of the values of the resources it
   * names, on any storage backend. Default none: values are stored as JSON.
   */
  encryption?: EncryptionConfig;
}

/** What the transport tells the server about a request besides the request itself. */
export interface FetchEnv {
  /** The client certificate; pass it only when the TLS layer verified it against the client CA. */
  peerCertificate?: PeerCertificate;
  /** Set when the client presented a certificate that did not verify (the request is then 401). */
  peerCertificateError?: string;
  /**
   * Every certificate the client presented, leaf first, unverified: for authenticators that verify against their own
   * CA (delegated authentication's client CA and front-proxy CA). Transports that do not ask for them leave it out.
   */
  peerCertificateChain?: readonly X509Certificate[];
  /**
   * Adds a header to the response the transport writes (a node server's `setHeader`). Headers every answer carries
   * (`Audit-Id`) go there when it is given, rather than into each Response; without it they are set on the Response.
   */
  setResponseHeader?(name: string, value: string): void;
  /**
   * The request body as the transport's own stream (Node's IncomingMessage). Given, a handler reads the body from
   * it directly instead of through the Request's web stream, which costs far more; the body limit and the deadline
   * apply the same way.
   */
  requestBody?: NodeBodyStream;
  /**
   * The request's headers as the transport received them, names and values alternating (Node's
   * IncomingMessage.rawHeaders): filters look for header names there without building a whole Headers.
   */
  readonly rawHeaders?: readonly string[];
}

/** A Kubernetes-compatible API server, transport-agnostic: serve `fetch` over HTTP or HTTPS (hono's node server). */
export interface ApiServer {
  /** Handles one request (the Fetch API, as hono apps do); `env` carries the verified client certificate. */
  fetch(request: Request, env?: FetchEnv): Response | Promise<Response>;
  /** Bootstraps (default namespaces, controllers); call once before serving. */
  start(): Promise<void>;
  /** Stops controllers and closes storage. */
  stop(): Promise<void>;
  /** Graceful shutdown, first step: `/readyz` fails (`[-]shutdown`) while requests are still served. */
  beginShutdown(): void;
  /** Ends every open watch stream cleanly (the response completes), so clients re-watch elsewhere. */
  endWatches(): void;
  /**
   * `--shutdown-send-retry-after`: from now on new requests (health checks and /metrics aside) are answered 429
   * with `Retry-After` and `Connection: close` while those in flight finish.
   */
  sendRetryAfter(): void;
  /** The server's metrics (served at /metrics); compositions may register their own in `metrics.registry`. */
  readonly metrics: ApiServerMetrics;
}

/** kube's anonymous user: requests without credentials run as it while anonymous access is on. */
export { ANONYMOUS };

/** kube-apiserver's `--etcd-compaction-interval` default: 5 minutes. */
export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60_000;

/** The namespaces kube-apiserver creates at start. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/**
 * Builds a server from its storage and group plugins. One request, one straight path: endpoint → authenticate →
 * authorize → decode → mutating admission → Store (strategy, validation) → validating admission → storage → encode.
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const log: LogSink = options.log ?? Object.assign(() => {}, { enabled: () => false });
  const version = options.version ?? defaultVersionInfo();
  const registry = createResourceRegistry(options.plugins);
  // Encryption at rest wraps the backend itself, so the store, the watch cache and compaction all go through it.
  if (options.encryption) options = { ...options, storage: encryptedStorage(options.storage, registry, options.encryption) };
  // Storage metrics wrap the backend the rest of the server sees, so every read and write is timed (etcd_request_*).
  const metrics = createApiServerMetrics();
  const resourceOf = (key: string) => {
    const entry = registry.forKey(key);
    if (!entry) return '';
    // the resource the key is stored as (a kind stored with another group's resource counts as that one)
    return entry.storedAs.group ? `${entry.storedAs.resource}.${entry.storedAs.group}` : entry.storedAs.resource;
  };
  options = { ...options, storage: instrumentedStorage(options.storage, metrics, resourceOf) };
  if (options.tracerProvider) options = { ...options, storage: tracedStorage(options.storage, options.tracerProvider, resourceOf) };
  let ready = false;
  let stopping = false;
  let refusing = false;
  let controller: ReturnType<typeof createNamespaceController> | undefined;

  const namespaceEntry = registry.byKind('', 'v1', 'Namespace');
  const systemCtx = (entry: ResourceEntry, options: { namespace?: string; subresource?: string; dryRun?: boolean } = {}): RequestContext => ({
    entry,
    namespace: options.namespace ?? '',
    user: SYSTEM_USER,
    dryRun: options.dryRun ?? false,
    subresource: options.subresource ?? '',
  });
  // kube's NamespaceLifecycle reads its informer's cache and looks the namespace up live only when the cache lacks
  // it (a namespace created a moment ago): here the watch cache as it is (resourceVersion 0), then storage.
  const getNamespace = async (name: string) => {
    if (!namespaceEntry) return { metadata: { name } };
    const ctx = systemCtx(namespaceEntry);
    return (await store.find(ctx, name, '0')) ?? store.find(ctx, name);
  };
  // Authorization modes may add plugins (RBAC's escalation prevention): the chain reads this list on every request.
  const admissionPlugins: AdmissionPlugin[] = [namespaceLifecycle(getNamespace), ...(options.admission ?? [])];
  const admission = createAdmissionChain(admissionPlugins, metrics);
  const gates = {
    CBORServingAndStorage: false,
    APIResponseCompression: true,
    AllowUnsafeMalformedObjectDeletion: false,
    WatchList: false,
    ListFromCacheSnapshot: true,
    ...options.featureGates,
  };
  // Objects read from storage get the defaults a write would give them (kube decodes with defaulting): data written
  // by an older server gains what this one defaults. A stored value that no longer parses is served as it is.
  const normalizeStored = (key: string, obj: KubeObject) => {
    try {
      registry.forKey(key, obj.apiVersion)?.defaults(obj);
    } catch {
      // left as stored
    }
  };
  const historyBudget = storageHistoryBudget(
    options.storage,
    options.storageHistoryBytes ?? DEFAULT_STORAGE_HISTORY_BYTES,
    (revision) => cache.compacted(revision),
    (message) => log(1, message),
  );
  const cache = createWatchCache(
    options.storage,
    registry.entries.map((e) => e.keyPrefix),
    { listFromCacheSnapshot: gates.ListFromCacheSnapshot, ...options.watchCache },
    log,
    normalizeStored,
    (revision, bytes) => historyBudget.record(revision, bytes),
  );
  let compactor: Compactor | undefined;
  // Set by a garbage collector plugin (PluginHost.enableGarbageCollection).
  let garbageCollection = false;
  const store = createStore({
    storage: createCacheDelegator(createObjectStorage(options.storage, normalizeStored), cache),
    admission,
    garbageCollection: () => garbageCollection,
    onWrite: (entry, type, obj) => controller?.onWrite(entry, type, obj),
  });
  controller = createNamespaceController(store, registry, SYSTEM_USER, log);

  // The server's authentication methods, then those plugins add (service-account tokens).
  const authenticators = [...(options.authenticators ?? [])];
  const startHooks: (() => Promise<void>)[] = [];
  let hooksRan = false;
  /** Runs a controller's follower at start, or at once when asked while serving (for a resource installed since). */
  const whenStarted = (run: () => Promise<void>) => (hooksRan ? void run() : startHooks.push(run));
  const stopHooks: (() => void | Promise<void>)[] = [];
  // Controllers' watches (onObjectsChange) end with the server.
  const stopped = new AbortController();
  // Every controller's watch listens on it (a server with many plugins has more than node's default warning limit).
  setMaxListeners(0, stopped.signal);
  let requestGate: RequestGate | undefined;
  const pluginPaths: { path: string; handler: (request: Request) => Response | Promise<Response> }[] = [];
  const pluginSubresources = new Map<string, SubresourceHandler>();
  const computedResources = new Map<string, Store>();
  const routers: RequestRouter[] = [];
  let discoverySource: DiscoverySource | undefined;
  let openAPISource: OpenAPISource | undefined;
  // The storage check of /readyz and /healthz, which plugins may also run (PluginHost.probeStorage).
  const probeStorage = () => options.storage.get('/registry/health');
  /** Groups installed while the server runs, with their entries while they are served. */
  const installedGroups = new Map<InstalledGroup, readonly ResourceEntry[]>();
  // Set right after the plugins are installed (an authorizer may read what they register).
  let authorizer: Authorizer | undefined;
  const limits: ServerLimits = {
    maxRequestsInflight: options.limits?.maxRequestsInflight ?? DEFAULT_MAX_REQUESTS_INFLIGHT,
    maxMutatingRequestsInflight: options.limits?.maxMutatingRequestsInflight ?? DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
    requestTimeoutMs: options.limits?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
  const host: PluginHost = {
    store,
    registry,
    systemUser: SYSTEM_USER,
    systemContext: systemCtx,
    log,
    metrics,
    limits,
    onStart: (hook: () => Promise<void>) => void startHooks.push(hook),
    onStop: (hook) => void stopHooks.push(hook),
    addAdmission(plugin: AdmissionPlugin) {
      // Dynamic admission stays at the end of the chain, whatever is added after it.
      const firstDynamic = plugin.stage === 'dynamic' ? -1 : admissionPlugins.findIndex((p) => p.stage === 'dynamic');
      if (firstDynamic < 0) admissionPlugins.push(plugin);
      else admissionPlugins.splice(firstDynamic, 0, plugin);
    },
    setRequestGate(gate) {
      if (requestGate) throw new Error('a request gate is already set: a server has one');
      requestGate = gate;
    },
    watchObjects(entry, handler) {
      whenStarted(async () => watchObjects(store, systemCtx(entry), handler, stopped.signal, (message) => log(1, message)));
    },
    enableGarbageCollection() {
      garbageCollection = true;
    },
    onObjectsChange(entry, onChange, only = {}) {
      const ctx = systemCtx(entry, { namespace: only.namespace });
      whenStarted(async () => watchChanges(store, ctx, onChange, stopped.signal, (message) => log(1, message), only.name));
    },
    objectCount(entry) {
      return cache.ready ? cache.collection(entry.keyPrefix).size : undefined;
    },
    addPath(path, handler) {
      pluginPaths.push({ path, handler });
    },
    addAuthenticator(authenticator) {
      authenticators.push(authenticator);
    },
    async authorize(attributes) {
      if (!authorizer) throw new Error('authorize: the server has no authorizer before createApiServer returns');
      return authorizer.authorize(attributes);
    },
    async installGroup(plugin, { replaces, refresh } = {}) {
      const entries = registry.prepare(plugin);
      const prefixes = [...new Set(entries.map((e) => e.keyPrefix))];
      const release = (list: string[]) => list.forEach((p) => cache.removeCollection(p));
      const replaced = replaces ? (installedGroups.get(replaces) ?? []) : [];
      try {
        for (const prefix of prefixes) await cache.addCollection(prefix);
        registry.add(plugin, entries, replaced);
      } catch (err) {
        release(prefixes);
        throw err;
      }
      if (replaces) {
        installedGroups.delete(replaces);
        release([...new Set(replaced.map((e) => e.keyPrefix))]);
        if (refresh) for (const prefix of prefixes) await cache.refreshCollection(prefix);
      }
      const group: InstalledGroup = {
        entries,
        uninstall() {
          if (!installedGroups.delete(group)) return;
          registry.remove(entries);
          release(prefixes);
        },
      };
      installedGroups.set(group, entries);
      return group;
    },
    equivalentResources(resource) {
      const entry = registry.lookup(resource.group, resource.version, resource.plural);
      return entry ? registry.entries.filter((e) => e !== entry && e.keyPrefix === entry.keyPrefix).map((e) => e.info) : [];
    },
    convertObject: (obj, to) => convertObject(registry, obj, to),
    addSubresource(target, action) {
      const key = specialKey(target.group, target.resource, target.subresource ?? '');
      if (pluginSubresources.has(key)) throw new Error(`subresource ${key} is served twice`);
      pluginSubresources.set(key, pluginSubresourceHandler(registry, action, admission));
    },
    addComputedResource(target, resource) {
      const key = specialKey(target.group, target.resource, '');
      if (computedResources.has(key)) throw new Error(`computed resource ${key} is served twice`);
      computedResources.set(key, computedStore(resource));
    },
    async probeStorage() {
      await probeStorage();
    },
    storedValue(path) {
      if (registry.forKey(`/registry/${path}`)) throw new Error(`/registry/${path} is a resource's key: a stored value cannot live there`);
      return storedValue(options.storage, path);
    },
    routeRequests(router) {
      routers.push(router);
    },
    setDiscoverySource(source) {
      if (discoverySource) throw new Error('a discovery source is already set: a server has one');
      discoverySource = source;
    },
    setOpenAPISource(source) {
      if (openAPISource) throw new Error('an OpenAPI source is already set: a server has one');
      openAPISource = source;
    },
  };
  for (const plugin of options.plugins) plugin.install?.(host);
  for (const c of options.controllers ?? []) c.install(host);
  const serverAuthorizer = unionAuthorizer(
    (options.authorizers ?? [alwaysAllow()]).map((a) => (typeof a === 'function' ? a(host) : a)),
    (name, decision) => metrics.authorizationDecisions.add(name, name.toLowerCase(), decision),
  );
  authorizer = serverAuthorizer;
  const accessFilter = createAccessFilter({ authenticators, anonymous: options.anonymousAuth ?? true, authorizer: serverAuthorizer, metrics });
  const answers = reviewAnswers({ authorizer: serverAuthorizer, authenticators, apiAudiences: options.apiAudiences ?? [] });

  const special: Record<string, SubresourceHandler> = Object.fromEntries(pluginSubresources);
  for (const { info } of registry.entries) {
    const answer = info.group.endsWith('.k8s.io') ? answers[info.plural] : undefined;
    if (answer && info.verbs.length === 1 && info.verbs[0] === 'create') special[specialKey(info.group, info.plural, '')] = reviewHandler(answer, admission);
  }
  const media = offeredMediaTypes(gates);
  const handleResource = createResourceHandler({
    registry,
    store,
    special,
    computed: Object.fromEntries(computedResources),
    scale: scaleHandler(store, admission, registry),
    anonymousUser: ANONYMOUS,
    media,
    compression: gates.APIResponseCompression,
    unsafeDeletion: gates.AllowUnsafeMalformedObjectDeletion,
    watchList: gates.WatchList,
    authorizer: serverAuthorizer,
    metrics,
  });
  collectCacheState(metrics, registry, cache);
  metrics.onCollect(async () => {
    const size = await options.storage.sizeBytes?.();
    if (size !== undefined) metrics.storageSize.set({ storage_cluster_id: '' }, size);
  });
  /** What the request metrics count: served resources (and their subresources), so invented paths add no labels. */
  const served = (info: RequestInfo) => {
    const entry = registry.lookup(info.group, info.version, info.resource);
    if (!entry || !info.subresource) return !!entry;
    return (
      Object.hasOwn(entry.info.subresources, info.subresource) ||
      Object.hasOwn(special, `${info.resource}/${info.subresource}`) ||
      !!subresourceUpdate(entry, info.subresource)
    );
  };
  /** The format errors are written in: what the client accepts, JSON when that cannot be told. */
  const errorFormat = (accept: string | undefined): ResponseFormat | undefined => {
    try {
      return negotiateResponse(accept, media, { table: false });
    } catch {
      return undefined;
    }
  };

  // Health as kube reports it: the storage check reads the backend itself, so a dead etcd shows as `[-]etcd failed`.
  const healthChecks = serverHealthChecks({
    probeStorage,
    started: () => ready,
    cacheReady: () => cache.ready,
    stopping: () => stopping,
  });

  const app = new Hono<{ Bindings: FetchEnv | undefined; Variables: { user: UserInfo; impersonatedBy: UserInfo } }>();
  /** The log, with the request's audit ID on every line. */
  const requestLog = (c: Context): LogSink => (level, message, fields) => log(level, message, { ...fields, 'audit-ID': requestAuditId(c) });
  const onError = (err: Error, c: Context) => errorResponse(err, requestLog(c));
  app.onError(onError);
  app.notFound(() => errorResponse(newPathNotFound()));
  // The filter chain in kube-apiserver's order: the audit ID and the request metrics (outermost: they see every
  // answer), audit (it records the code the client got, whoever answered), request timeout, authentication and
  // authorization, then in-flight limits (so system:masters is exempt) and the body size limit. One hono layer
  // (filterChain): a layer of its own for each would cost every request two promises more per filter.
  const filters: MiddlewareHandler[] = [];
  filters.push(requestEntry([requestMetrics(metrics, served, registry.onChange), httpLog(log)], () => refusing));
  // Without an audit log there is nothing to record: no filter at all.
  if (options.audit) filters.push(auditLog(options.audit, options.auditPolicy, metrics));
  filters.push(requestTimeout(options.limits));
  // Every request, discovery and health included, is authenticated then authorized before any route reads it.
  filters.push(async (c, next) => {
    try {
      const facts = requestFacts(c);
      const { user, impersonatedBy, attributes } = await accessFilter(c.req.raw, c.env?.peerCertificate, c.env?.peerCertificateError, c.env?.peerCertificateChain, {
        url: facts.url,
        info: facts.info,
        rawHeaders: c.env?.rawHeaders,
      });
      c.set('user', user);
      c.set('attributes' as never, attributes as never);
      if (impersonatedBy) c.set('impersonatedBy', impersonatedBy);
    } catch (err) {
      return errorResponse(err, requestLog(c), errorFormat(c.req.header('accept')));
    }
    await next();
  });
  // kube's WithTracing sits right inside authentication: it knows whose trace context to trust.
  if (options.tracerProvider) filters.push(withTracing(options.tracerProvider));
  // API Priority and Fairness when a plugin gates requests, else kube's in-flight limits.
  filters.push(requestGate ? gateRequests(requestGate, limits.requestTimeoutMs / 4 || 15_000, metrics) : maxInFlight(options.limits, metrics));
  filters.push(memoryBudget(options.limits?.maxHeapBytes));
  filters.push(maxBodySize(options.limits));
  // Plugins that serve requests in the server's place (the aggregator's proxy) come before the server's own routes.
  if (routers.length) {
    filters.push(async (c, next) => {
      for (const router of routers) {
        const handler = router(c.req.path);
        if (!handler) continue;
        try {
          return await handler(limitedRequest(c), c.get('user'));
        } catch (err) {
          return errorResponse(err, requestLog(c), errorFormat(c.req.header('accept')));
        }
      }
      await next();
    });
  }
  app.use('*', filterChain(filters, onError));
  app.route('/', createHealthRoutes(healthChecks, undefined, (endpoint, name, healthy) => metrics.healthCheck(endpoint, name, healthy)));
  app.get('/version', (c) => c.json(version));
  app.route('/', createMetricsRoute(metrics));
  app.route('/', createDiscoveryRoutes(() => registry.groups, () => discoverySource?.current()));
  app.route('/', createOpenAPIRoutes(() => registry.groups, {}, () => openAPISource?.current()));
  for (const { path, handler } of pluginPaths) app.get(path, (c) => handler(c.req.raw));
  app.all('*', async (c) => {
    const { url, info: parsed } = requestFacts(c);
    // A server without CustomResourceDefinitions (no apiextensions plugin) has none: kubectl's client-side validation
    // lists them for kinds whose OpenAPI has no PATCH operation (the access reviews), so the truthful answer is an
    // empty list rather than a 404. (Not a route of its own: beside `/apis/:group/:version` it would keep hono
    // from its fastest router.)
    if (c.req.method === 'GET' && url.pathname === CRD_LIST_PATH && !registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')) {
      return c.json({ kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: { resourceVersion: '0' }, items: [] });
    }
    // A path that did not parse (a bad escape) is parsed again, for its 400.
    const info = parsed ?? parseRequestInfo(c.req.method, url.pathname, url.searchParams);
    if (!info) return errorResponse(newPathNotFound());
    try {
      return await handleResource(c.req.raw, info, c.get('user'), requestDeadlineOf(c), () => readRequestBody(c), url.searchParams);
    } catch (err) {
      return errorResponse(err, requestLog(c), errorFormat(c.req.header('accept')));
    }
  });

  return {
    fetch: (request, env) => app.fetch(request, env),
    metrics,
    async start() {
      if (namespaceEntry) {
        for (const name of SYSTEM_NAMESPACES) {
          if (await store.find(systemCtx(namespaceEntry), name)) continue;
          try {
            await store.create(systemCtx(namespaceEntry), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
            log(2, `created namespace ${name}`);
          } catch (err) {
            // Another server on the same storage (etcd) created it first.
            if ((err as { status?: { reason?: string } }).status?.reason !== 'AlreadyExists') throw err;
          }
        }
      }
      for (const hook of startHooks) await hook();
      hooksRan = true;
      await controller!.resync();
      compactor = startCompactor(options.storage, {
        intervalMs: options.compactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS,
        log: (message) => log(2, message),
        onCompact: (revision) => cache.compacted(revision),
      });
      ready = true;
      // The cache fills in the background, as kube's cachers do: until it is ready, reads go to storage and
      // watches wait for it, so a server with much data is ready at once instead of after reading all of it.
      cache.start().catch((err: Error) => log(1, `watch cache: first fill failed (${err.message}); retrying`));
    },
    beginShutdown() {
      stopping = true;
    },
    endWatches() {
      cache.stop();
    },
    sendRetryAfter() {
      refusing = true;
    },
    async stop() {
      stopping = true;
      ready = false;
      compactor?.stop();
      stopped.abort();
      for (const hook of stopHooks) await hook();
      cache.stop();
      controller!.stop();
      await options.storage.close();
    },
  };
}

const CRD_LIST_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Controllers inside the server act as kube's loopback client does: a privileged system user. */
const SYSTEM_USER: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };
