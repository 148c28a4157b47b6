export { createKapiApiServer, createStorage, GROUPS, serverPlugins, SQLITE_DATABASE } from './apiserver.js';
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
export { TLS_FILES, ensureSelfSignedCertificates, loadServingCertificate, servingNames, type GeneratedCertificates, type ServingCertificate } from './tls.js';
