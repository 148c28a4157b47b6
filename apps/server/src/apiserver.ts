import { plugin as apps } from '@kapi/api-apps';
import { group as authentication } from '@kapi/api-authentication';
import { group as authorization } from '@kapi/api-authorization';
import { plugin as autoscaling } from '@kapi/api-autoscaling';
import { plugin as batch } from '@kapi/api-batch';
import { plugin as certificates } from '@kapi/api-certificates';
import { plugin as coordination } from '@kapi/api-coordination';
import { createCorePlugin, setupCapabilities, type ServiceAccountTokenOptions } from '@kapi/api-core';
import { plugin as discovery } from '@kapi/api-discovery';
import { plugin as events } from '@kapi/api-events';
import { plugin as networking } from '@kapi/api-networking';
import { plugin as node } from '@kapi/api-node';
import { plugin as policy } from '@kapi/api-policy';
import { plugin as rbac } from '@kapi/api-rbac';
import { plugin as scheduling } from '@kapi/api-scheduling';
import { plugin as storage } from '@kapi/api-storage';
import { plugin as wardle } from '@kapi/api-wardle';
import { plugin as apiextensions } from '@kapi/apiextensions';
import { plugin as admissionWebhooks } from '@kapi/admission-webhooks';
import { aggregatorPlugin, type AggregatorOptions } from '@kapi/aggregator';
import { garbageCollector } from '@kapi/controllers';
import { flowControlGroup, priorityAndFairness } from '@kapi/flowcontrol';
import {
  alwaysAllow,
  alwaysDeny,
  applyRuntimeConfig,
  createApiServer,
  type LogSink,
  defaultVersionInfo,
  groupPlugin,
  loadAuditPolicy,
  privilegedGroups,
  rbacAuthorizer,
  tokenFileAuthenticator,
  x509Authenticator,
  type ApiServer,
  type Authenticator,
  type ApiServerOptions,
  type AuditPolicy,
  type AuditSink,
  type GroupPlugin,
} from '@kapi/apiserver';
import { usePrebuiltValidators } from '@kapi/apimachinery';
import type { StorageBackend } from '@kapi/storage';
import { openStorage } from './storage.js';
import { loadExternalPlugins, pluginOrigin } from './external-plugins.js';
import { serviceAccountTokens } from './service-account-key.js';
import { loadEncryption } from './encryption.js';
import { loadAdmissionConfiguration, type AdmissionConfigs } from './admission-config.js';
import { loadTracingConfig, startTracing } from './tracing.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RotatingFile } from './audit-file.js';
import type { ServerConfig } from './flags.js';
import type { AggregationTrust } from './front-proxy.js';

export { createLogger } from '@kapi/apiserver';

/** kapi-server's version, set by tsup from package.json. */
declare const __KAPI_SERVER_VERSION__: string | undefined;
const version = typeof __KAPI_SERVER_VERSION__ === 'string' ? __KAPI_SERVER_VERSION__ : '0.0.0';

/**
 * Every group the sample server serves, in discovery order (core first, as kube-apiserver): a group package's
 * `plugin` where it has hand-written behaviour for its kinds, its generated definition otherwise; CustomResourceDefinitions
 * through @kapi/apiextensions; admissionregistration.k8s.io with its webhooks and policies through
 * @kapi/admission-webhooks; apiregistration.k8s.io APIServices and the proxy to extension servers through
 * @kapi/aggregator.
 */
export function serverPlugins(
  config?: Pick<
    ServerConfig,
    'serviceClusterIPRange' | 'serviceNodePortRange' | 'defaultNotReadyTolerationSeconds' | 'defaultUnreachableTolerationSeconds' | 'advertiseAddress' | 'securePort' | 'insecurePort'
  >,
  trust?: AggregationTrust,
  serviceAccountTokens?: ServiceAccountTokenOptions,
  admission: AdmissionConfigs = {},
): GroupPlugin[] {
  return [
    createCorePlugin({
      clusterIPRange: config?.serviceClusterIPRange,
      nodePortRange: config?.serviceNodePortRange,
      defaultTolerationSeconds: config && { notReadySeconds: config.defaultNotReadyTolerationSeconds, unreachableSeconds: config.defaultUnreachableTolerationSeconds },
      apiServerEndpoint: config ? { address: config.advertiseAddress, port: config.securePort || config.insecurePort } : undefined,
      serviceAccountTokens,
      rootCA: trust?.servingCaPem,
      resourceQuota: admission.resourceQuota,
    }),
    apps,
    events,
    groupPlugin(authentication),
    groupPlugin(authorization),
    autoscaling,
    batch,
    certificates,
    networking,
    policy,
    rbac,
    storage,
    admissionWebhooks,
    scheduling,
    coordination,
    node,
    discovery,
    wardle,
    apiextensions,
    aggregatorPlugin(aggregatorOptions(trust)),
  ];
}

/**
 * The aggregator dials extension servers with the front proxy's client certificate and publishes the client CA and
 * the request-header trust for them (kube-system/extension-apiserver-authentication).
 */
function aggregatorOptions(trust: AggregationTrust | undefined): AggregatorOptions {
  if (!trust) return {};
  const { frontProxy, clientCaPem } = trust;
  return {
    proxyClientCertificate: { cert: frontProxy.clientCert, key: frontProxy.clientKey },
    authentication: { clientCaPem, requestHeader: frontProxy.requestHeader },
  };
}

/** The groups the sample server serves (their generated definitions). */
export const GROUPS = serverPlugins().map((p) => p.definition);

/** The SQLite database of `--storage-backend=sqlite`, inside `--data-dir`. */
export const SQLITE_DATABASE = 'kapi.db';

/** Opens the storage backend the configuration names (SQLite: `kapi.db` in `--data-dir`). */
export function createStorage(config: ServerConfig, log: LogSink): Promise<StorageBackend> {
  return openStorage(config, SQLITE_DATABASE, log);
}

/** kube's superuser group: allowed everything before any `--authorization-mode` is asked. */
export const PRIVILEGED_GROUP = 'system:masters';

/**
 * The authenticators of the configuration, in kube-apiserver's order: client certificates (verified by the TLS
 * listener against the client CA), then `--token-auth-file` bearer tokens. Throws when the token file cannot be read.
 */
export function createAuthenticators(config: ServerConfig): Authenticator[] {
  const authenticators = [x509Authenticator()];
  if (config.tokenAuthFile) {
    let text: string;
    try {
      text = readFileSync(config.tokenAuthFile, 'utf8');
    } catch (error) {
      throw new Error(`unable to load --token-auth-file ${config.tokenAuthFile}: ${(error as Error).message}`);
    }
    try {
      authenticators.push(tokenFileAuthenticator(text));
    } catch (error) {
      throw new Error(`invalid --token-auth-file ${config.tokenAuthFile}: ${(error as Error).message}`);
    }
  }
  return authenticators;
}

/** The authorizers of `--authorization-mode`, after kube's system:masters superuser check. */
export function createAuthorizers(config: ServerConfig, log: LogSink): NonNullable<ApiServerOptions['authorizers']> {
  return [
    privilegedGroups(PRIVILEGED_GROUP),
    ...config.authorizationModes.map((mode) => {
      switch (mode) {
        case 'AlwaysAllow':
          return alwaysAllow();
        case 'AlwaysDeny':
          return alwaysDeny();
        case 'RBAC':
          return rbacAuthorizer({ log });
      }
    }),
  ];
}

/**
 * `--audit-log-path` with `--audit-policy-file`: `-` is stdout, anything else a file appended to (created 0600,
 * its directory as needed) and rotated by `--audit-log-maxsize`, `-maxbackup` and `-maxage`. The policy and the
 * file are opened now, so a bad policy or a path that cannot be written fails the start as kube-apiserver's does.
 * Without a policy nothing is recorded, as in kube.
 */
export function openAuditLog(config: ServerConfig, log: LogSink): { sink?: AuditSink; policy?: AuditPolicy; close(): Promise<void> } {
  const none = { close: async () => {} };
  const path = config.auditLogPath;
  if (!path) return none;
  if (!config.auditPolicyFile) {
    log(0, 'audit log: no audit policy file provided (--audit-policy-file), no events will be recorded');
    return none;
  }
  let policy: AuditPolicy;
  try {
    policy = loadAuditPolicy(readFileSync(config.auditPolicyFile, 'utf8'));
  } catch (error) {
    throw new Error(`loading audit policy file "${config.auditPolicyFile}": ${(error as Error).message}`);
  }
  if (path === '-') return { sink: process.stdout, policy, close: async () => {} };
  let file: RotatingFile;
  try {
    const rotation = { maxSizeMB: config.auditLogMaxSize, maxBackups: config.auditLogMaxBackup, maxAgeDays: config.auditLogMaxAge };
    file = new RotatingFile(path, rotation, (error) => log(0, `audit log ${path}: ${error.message}`));
  } catch (error) {
    throw new Error(`unable to open --audit-log-path ${path}: ${(error as Error).message}`);
  }
  log(0, `audit log: ${path} (policy ${config.auditPolicyFile})`);
  return { sink: file, policy, close: () => file.close() };
}

/** The composed server, and what it tells aggregated API servers to trust (when the caller gave it). */
export type KapiApiServer = ApiServer & { readonly trust?: AggregationTrust };

/** Every API group the sample server is built with (whatever --runtime-config turns off). */
const BUILT_IN_GROUPS = new Set([...GROUPS.map((g) => g.group), flowControlGroup().definition.group]);

/** Throws, naming the --plugin value, for a plugin whose API group the server already serves (or another plugin does). */
export function checkExternalPlugins(external: readonly GroupPlugin[]): void {
  const served = new Set(BUILT_IN_GROUPS);
  for (const plugin of external) {
    const group = plugin.definition.group;
    if (served.has(group)) throw new Error(`--plugin ${pluginOrigin(plugin) ?? ''}: the API group ${group || 'core'} is served already; a plugin adds a group of its own`);
    served.add(group);
  }
}

/**
 * Every plugin the server installs (the built-in groups, then `external` ones from `--plugin`), narrowed by `--runtime-config` (a group with no version left is not served at
 * all). Throws RuntimeConfigError (kube's messages) for a group or version no plugin has.
 */
export function enabledPlugins(config: ServerConfig, trust?: AggregationTrust, external: readonly GroupPlugin[] = [], log?: LogSink): GroupPlugin[] {
  const admission = loadAdmissionConfiguration(config.admissionControlConfigFile, log);
  // API Priority and Fairness gates requests when on; its API group is served either way, as kube serves it.
  const builtIn = [...serverPlugins(config, trust, serviceAccountTokens(config), admission), config.enablePriorityAndFairness ? priorityAndFairness() : flowControlGroup()];
  checkExternalPlugins(external);
  const plugins = [...builtIn, ...external];
  return applyRuntimeConfig(plugins, config.runtimeConfig);
}

/**
 * Composes the API server from the configuration: storage → group plugins (narrowed by `--runtime-config`) →
 * ApiServer (which runs the compactor of `--etcd-compaction-interval` while it serves). `trust` (the client CA and the
 * front proxy) is what the aggregator dials extension servers with and publishes for them.
 */
export async function createKapiApiServer(config: ServerConfig, log: LogSink, trust?: AggregationTrust, external?: readonly GroupPlugin[]): Promise<KapiApiServer> {
  // Before anything is opened: a --plugin that does not load, or a --runtime-config naming what the server does not
  // have, fails the start. (kapi-server loads --plugin modules before making certificates, and passes them.)
  const plugins = enabledPlugins(config, trust, external ?? (await loadExternalPlugins(config.plugins)), log);
  // The validators the build compiled for a first start (prebuild-validators.ts), beside the built code.
  usePrebuiltValidators(fileURLToPath(new URL('./validators/', import.meta.url)));
  // kube-apiserver's capabilities.Setup: the process's, as in kube (pod validation of every server in it follows).
  setupCapabilities({ allowPrivileged: config.allowPrivileged ?? false });
  const audit = openAuditLog(config, log);
  const encryption = loadEncryption(config.encryptionProviderConfig, log);
  const tracing = config.tracingConfigFile ? startTracing(loadTracingConfig(config.tracingConfigFile)) : undefined;
  if (tracing) log(0, `tracing: spans exported over OTLP gRPC (from ${config.tracingConfigFile})`);
  const storage = await createStorage(config, log);
  const apiServer = createApiServer({
    storage,
    encryption,
    plugins,
    // kube's garbage collector (ownerReferences, propagationPolicy), one server at a time on shared storage.
    controllers: [garbageCollector()],
    // kube's default API audiences: the service-account issuers.
    apiAudiences: config.apiAudiences ?? config.serviceAccountIssuers,
    featureGates: config.featureGates,
    version: defaultVersionInfo(version),
    log,
    authenticators: createAuthenticators(config),
    anonymousAuth: config.anonymousAuth,
    authorizers: createAuthorizers(config, log),
    limits: {
      maxResourceWriteBytes: config.maxResourceWriteBytes,
      maxRequestsInflight: config.maxRequestsInflight,
      maxMutatingRequestsInflight: config.maxMutatingRequestsInflight,
      requestTimeoutMs: config.requestTimeoutMs,
    },
    audit: audit.sink,
    auditPolicy: audit.policy,
    compactionIntervalMs: config.etcdCompactionIntervalMs,
    tracerProvider: tracing?.provider,
  });
  return {
    ...apiServer,
    trust,
    async start() {
      // Spans are made from the first request served on: the tracing SDK is loaded before.
      await tracing?.ready;
      await startRacingPeers(apiServer);
    },
    async stop() {
      await apiServer.stop();
      await audit.close();
      // Spans still batched are sent before the process exits.
      await tracing?.shutdown().catch(() => {});
    },
  };
}

/**
 * Several servers on one etcd may bootstrap at once: each creates the system namespaces it did not find, and all
 * but one lose that race with AlreadyExists. Starting again then finds them and goes on.
 */
async function startRacingPeers(apiServer: ApiServer, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await apiServer.start();
    } catch (error) {
      const reason = (error as { status?: { reason?: string } }).status?.reason;
      if (reason !== 'AlreadyExists' || attempt >= attempts) throw error;
    }
  }
}
