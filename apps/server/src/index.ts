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
