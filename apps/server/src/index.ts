export { createKapiApiServer, createStorage, enabledPlugins, GROUPS, serverPlugins, SQLITE_DATABASE, type KapiApiServer } from './apiserver.js';
export { loadFrontProxy, type AggregationTrust, type FrontProxy } from './front-proxy.js';
export {
  AUTHORIZATION_MODES,
  FEATURE_GATES,
  FlagError,
  STORAGE_BACKENDS,
  parseDuration,
  parseFeatureGates,
  parseFlags,
  usage,
  type AuthorizationMode,
  type CommandLine,
  type FeatureGateName,
  type ServerConfig,
  type StorageBackendName,
} from './flags.js';
export { KUBECONFIG_NAMES, renderKubeconfig, writeKubeconfig, type AdminKubeconfig } from './kubeconfig.js';
export { closeOnSignals, startServer, type ListenPort, type RunningServer, type ServedApi, type StartServerOptions } from './serve.js';
export {
  FRONT_PROXY_CLIENT,
  FRONT_PROXY_FILES,
  TLS_FILES,
  ensureFrontProxyCertificates,
  ensureSelfSignedCertificates,
  loadServingCertificate,
  servingNames,
  type FrontProxyCertificates,
  type GeneratedCertificates,
  type ServingCertificate,
} from './tls.js';
