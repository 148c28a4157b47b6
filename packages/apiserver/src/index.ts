// Public API of @kapi/apiserver.
export { createApiServer, ANONYMOUS, SYSTEM_NAMESPACES, type ApiServer, type ApiServerOptions, type FetchEnv, type ServerController } from './server.js';
export { groupPlugin, type GroupPlugin, type KindConversion, type StoredResource, type Strategy, type WriteFinisher } from './plugin.js';
export { MissingVersionError } from './apply/versions.js';
export { applyRuntimeConfig, parseRuntimeConfig, RuntimeConfigError, validateRuntimeConfig, type RuntimeConfig } from './runtime-config.js';
export type {
  ComputedResource,
  ComputedTarget,
  DiscoverySource,
  ExternalDiscovery,
  ExternalGroupVersion,
  ExternalOpenAPI,
  InstalledGroup,
  OpenAPISource,
  RequestDelegate,
  RequestRouter,
  PluginHost,
  ServerLimits,
  SubresourceAction,
  SubresourceCall,
  SubresourceTarget,
} from './host.js';
export type { StoredValue } from './storage/stored-value.js';
export type { Store, UpdateResult, Updater } from './registry/store.js';
export type { RequestContext } from './registry/context.js';
export type { ResourceEntry, ResourceRegistry } from './registry/resources.js';
export { ALL_OBJECTS, type ListOptions } from './registry/list.js';
export type { ObjectEvents } from './registry/informer.js';
export { FOREGROUND_FINALIZER, gcFinalizers, ORPHAN_FINALIZER } from './registry/rest.js';
export { coalesced, followObjects, type ListSource } from './registry/follow.js';
export type { DeleteOptions } from './registry/delete.js';
export { nowTimestamp, validateObjectMetaAt, type ObjectMetaRules } from './registry/object-meta.js';
export { generateName, isValidPathSegmentName, isValidPathSegmentPrefix } from './registry/names.js';
export type { RequestLimits } from './limits/middleware.js';
export type { NodeBodyStream } from './limits/request-body.js';
export { MAX_REQUEST_WAIT_MS, type GateDecision, type GatedRequest, type RequestGate } from './limits/gate.js';
export { defaultVersionInfo, KUBE_API_LEVEL, type VersionInfo } from './version.js';
export { createAdmissionChain, type AdmissionChain } from './admission/chain.js';
export type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin, UserInfo } from './admission/types.js';
export { admissionForbidden } from './admission/forbidden.js';
export type {
  Authenticator,
  AuthenticatedUser,
  AuthorizationAttributes,
  Authorizer,
  Decision,
  PeerCertificate,
  RequestCredentials,
  SubjectRules,
} from './auth/types.js';
export {
  AUTHENTICATED_GROUP,
  authenticate,
  bearerToken,
  INVALID_BEARER_TOKEN,
  parseTokenFile,
  tokenFileAuthenticator,
  withAuthenticatedGroup,
  x509Authenticator,
  type TokenUsers,
} from './auth/authenticators.js';
export { requestAttributes } from './auth/attributes.js';
export { ALL_RULES, alwaysAllow, alwaysDeny, privilegedGroups } from './auth/always-allow.js';
export { unionAuthorizer } from './auth/union.js';
export { forbiddenError, forbiddenMessage } from './auth/forbidden.js';
export { createAccessFilter, type AccessFilter, type RequestUser } from './auth/filter.js';
export type { AuthorizerFactory, AuthorizerHost } from './auth/host.js';
export { rbacAuthorizer } from './auth/rbac-mode.js';
export * from './auth/delegating/index.js';
export { isLongRunning } from './limits/long-running.js';
export { createApiServerMetrics, type ApiServerMetrics, type MetricSet } from './metrics/index.js';
export { talliedCounter, type TalliedCounter } from './metrics/tally.js';
export { FastHistogram, type HistogramSeries } from './metrics/fast-histogram.js';
/** prom-client's Registry, Counter, Gauge and Histogram, loaded without the rest of prom-client (for plugins' metrics). */
export { promClient } from './metrics/prom-client.js';
export { requestAuditId, withAuditId } from './endpoints/audit-id.js';
export { createLogger, formatKlog, httpLog, LOGGING_FORMATS, type LogFields, type LoggerOptions, type LoggingFormat, type LogSink } from './logging/index.js';
export { observeRequests, type ObservedRequest, type RequestObserver, type RequestOutcome } from './endpoints/observe.js';
export { spanName, tracedStorage, withTracing, TRACER_NAME } from './tracing/index.js';
export { toYaml } from './endpoints/media/yaml.js';
export {
  auditAnnotate,
  auditLog,
  auditRequestObject,
  auditResponseObject,
  evaluatePolicy,
  loadAuditPolicy,
  METADATA_POLICY,
  type AuditEvent,
  type AuditLevel,
  type AuditPolicy,
  type AuditPolicyRule,
  type AuditSink,
  type AuditStage,
} from './audit/index.js';
export { createRbacAuthorizer } from './auth/rbac/index.js';
export {
  aesCbcTransformer,
  aesGcmTransformer,
  encryptedStorage,
  identityTransformer,
  loadEncryptionConfig,
  prefixTransformers,
  secretboxTransformer,
  transformingBackend,
  type EncryptionConfig,
  type FromStorage,
  type PrefixTransformer,
  type ValueTransformer,
} from './encryption/index.js';
export { compareKubeAwareVersions, sortByVersionPriority } from './discovery/version-priority.js';
export { resourceDiscoveries } from './discovery/index.js';
export { AGGREGATED_DISCOVERY_CONTENT_TYPE } from './endpoints/discovery-routes.js';
export { createWebhookClient, WebhookCallError, type ServiceResolver, type WebhookClient, type WebhookClientConfig } from './webhook/client.js';
export { resolveServiceAddress, serviceResolver, type ServiceAddress } from './webhook/service-resolver.js';
export { applyPatch, type PatchType } from './endpoints/patch.js';
export { checkDeadline, deadlineExceeded, MAX_RECORDED_WARNINGS, type RequestDeadline } from './registry/context.js';
