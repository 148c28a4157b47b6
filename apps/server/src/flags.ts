import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseCidr, parsePortRange } from '@kapi/api-core';
import { parseRuntimeConfig, validateRuntimeConfig, type RuntimeConfig } from '@kapi/apiserver';
import { STORAGE_BACKENDS, type StorageBackendName } from './storage.js';
import { DEFAULT_BIND_ADDRESS, DEFAULT_DATA_DIR, DEFAULT_SECURE_PORT } from './defaults.js';

/** kube-style feature gates this server knows, with their defaults. Unknown names are an error, as in kube. */
export const FEATURE_GATES = {
  AllowUnsafeMalformedObjectDeletion: false,
  APIResponseCompression: true,
  CBORServingAndStorage: false,
  ListFromCacheSnapshot: true,
  WatchList: false,
} as const satisfies Record<string, boolean>;
export type FeatureGateName = keyof typeof FEATURE_GATES;

export { STORAGE_BACKENDS, type StorageBackendName };

/** Values of `--logging-format`, as kube-apiserver names them (@kapi/apiserver's createLogger formats). */
export const LOGGING_FORMATS = ['text', 'json'] as const;
export type LoggingFormat = (typeof LOGGING_FORMATS)[number];

/** Values of `--authorization-mode`, as kube-apiserver spells them. */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'RBAC'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** The server's configuration, after flags are parsed and validated. Paths are absolute. */
export interface ServerConfig {
  bindAddress: string;
  /** `--advertise-address`: where the `kubernetes` Service's endpoints point (the bind address by default). */
  advertiseAddress: string;
  /** `--service-cluster-ip-range` */
  serviceClusterIPRange: string;
  /** `--service-node-port-range` */
  serviceNodePortRange: string;
  /** `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds` (DefaultTolerationSeconds admission). */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  /** HTTPS port; 0 = no HTTPS listener. */
  securePort: number;
  /** Plain HTTP port; 0 = no HTTP listener. */
  insecurePort: number;
  storageBackend: StorageBackendName;
  /** Holds the SQLite database (`kapi.db`), generated TLS material and the admin kubeconfig. */
  dataDir: string;
  /** `--etcd-servers`: etcd client URLs; needed with `--storage-backend=etcd3`. */
  etcdServers: string[];
  /** `--etcd-prefix`: the etcd key prefix Kapi's `/registry/...` keys live under. */
  etcdPrefix: string;
  /** `--etcd-compaction-interval` in ms (all backends); 0 = never compact. */
  etcdCompactionIntervalMs: number;
  /** `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`: TLS to etcd (absolute paths). */
  etcdCaFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
  /** Every known gate, defaults overridden by `--feature-gates`. */
  featureGates: Record<FeatureGateName, boolean>;
  /** `--authorization-mode`: evaluated in order after the system:masters superuser check. */
  authorizationModes: AuthorizationMode[];
  /** `--client-ca-file`; undefined means a client CA and an admin client certificate are generated in the data dir. */
  clientCaFile?: string;
  /** `--token-auth-file`: kube's static token CSV. */
  tokenAuthFile?: string;
  /**
   * `--root-ca-file` (kube-controller-manager's, whose controllers this server runs): the CA bundle published as
   * every namespace's kube-root-ca.crt; undefined means the CA of the serving certificate.
   */
  rootCaFile?: string;
  /**
   * `--plugin`: modules exporting group plugins to serve besides the built-in groups. File paths are absolute
   * (resolved against the working directory); other values are package names, resolved from the working directory.
   */
  plugins: string[];
  /** `--service-account-issuer`, every value (the first issues tokens). */
  serviceAccountIssuers: string[];
  /** `--service-account-signing-key-file`; undefined: a key generated in the data dir. */
  serviceAccountSigningKeyFile?: string;
  /** `--service-account-key-file`, every value. */
  serviceAccountKeyFiles: string[];
  /** `--api-audiences`; undefined: the first issuer. */
  apiAudiences?: string[];
  /** `--service-account-max-token-expiration` in ms; 0: none. */
  serviceAccountMaxTokenExpirationMs: number;
  /** `--service-account-jwks-uri` */
  serviceAccountJwksUri?: string;
  /** `--tracing-config-file`: kube's TracingConfiguration (absolute path); tracing is off without it. */
  tracingConfigFile?: string;
  /** `--anonymous-auth`: requests without credentials run as system:anonymous (default true). */
  anonymousAuth: boolean;
  /** `--allow-privileged`: privileged and Windows HostProcess containers may be created (default false, as kube). */
  allowPrivileged: boolean;
  /** Both or neither; neither means a self-signed certificate is generated in the data dir. */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** Where the admin kubeconfig is written; undefined when `--write-kubeconfig=""` turned it off. */
  writeKubeconfig?: string;
  /** kube's -v: log messages at this level and below are shown. */
  verbosity: number;
  /** `--max-resource-write-bytes`: the largest request body (413 beyond); 0 = no limit. */
  maxResourceWriteBytes: number;
  /** `--max-requests-inflight`: concurrent read-only requests, watches excepted (429 beyond); 0 = no limit. */
  maxRequestsInflight: number;
  /** `--max-mutating-requests-inflight`: concurrent mutating requests (429 beyond); 0 = no limit. */
  maxMutatingRequestsInflight: number;
  /** `--request-timeout` in ms: non-long-running requests still running after it are answered 504. */
  requestTimeoutMs: number;
  /** `--audit-log-path`: audit events as JSON lines to this file (absolute), `-` for stdout; undefined = no audit. */
  auditLogPath?: string;
  /** `--audit-policy-file`: the audit.k8s.io/v1 Policy (absolute); without it no event is logged, as in kube. */
  auditPolicyFile?: string;
  /** `--audit-log-maxage` (days), `--audit-log-maxbackup`, `--audit-log-maxsize` (MB): rotation; 0 = no limit. */
  auditLogMaxAge: number;
  auditLogMaxBackup: number;
  auditLogMaxSize: number;
  /** `--encryption-provider-config`: kube's EncryptionConfiguration for encryption at rest (absolute path). */
  encryptionProviderConfig?: string;
  /**
   * `--admission-control-config-file`: kube's AdmissionConfiguration, the admission plugins' configurations (the
   * ResourceQuota plugin's `limitedResources` is read), absolute.
   */
  admissionControlConfigFile?: string;
  /** `--shutdown-delay-duration` in ms: on SIGTERM, /readyz fails but requests are served this long. */
  shutdownDelayMs: number;
  /** `--shutdown-send-retry-after`: after the delay, new requests get 429 + Retry-After while in-flight ones drain. */
  shutdownSendRetryAfter: boolean;
  /** `--enable-priority-and-fairness` (default true): API Priority and Fairness in place of the in-flight limits. */
  enablePriorityAndFairness: boolean;
  /** `--logging-format`: klog text or JSON lines. */
  loggingFormat: LoggingFormat;
  /**
   * `--runtime-config`: which API versions and resources are served (kube's keys; syntax and values already
   * checked). Applied to the group plugins by @kapi/apiserver's applyRuntimeConfig, which also rejects unknown groups.
   */
  runtimeConfig: RuntimeConfig;
  /**
   * `--proxy-client-cert-file`, `--proxy-client-key-file` (both or neither; absolute): the client certificate the
   * server presents when it proxies to an aggregated API server. Neither: a front-proxy CA and a client certificate
   * (CN front-proxy-client) are generated in the data dir.
   */
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  /**
   * `--requestheader-client-ca-file` (absolute): the CA front proxies' client certificates are verified against
   * before their X-Remote-* headers are believed. Undefined: the generated front-proxy CA when the proxy client
   * certificate is generated, none otherwise.
   */
  requestheaderClientCaFile?: string;
  /**
   * `--requestheader-allowed-names`: common names a front proxy's certificate may have (empty: any signed by the CA).
   * Undefined when not given: [front-proxy-client] when the proxy client certificate is generated, [] otherwise.
   */
  requestheaderAllowedNames?: string[];
  /** `--requestheader-username-headers` (default [X-Remote-User]). */
  requestheaderUsernameHeaders: string[];
  /** `--requestheader-group-headers` (default [X-Remote-Group]). */
  requestheaderGroupHeaders: string[];
  /** `--requestheader-extra-headers-prefix` (default [X-Remote-Extra-]). */
  requestheaderExtraHeadersPrefix: string[];
}

export type CommandLine = { help: true } | { help: false; config: ServerConfig };

/**
 * A command-line error, worded like kube-apiserver's (pflag/cobra). `usage` is true for parse errors, after
 * which cobra prints the usage text; validation errors print the message alone.
 */
export class FlagError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
    this.name = 'FlagError';
  }
}

interface FlagDoc {
  name: string;
  short?: string;
  type: string;
  description: string;
  default?: string;
}

const FLAG_DOCS: FlagDoc[] = [
  {
    name: 'admission-control-config-file',
    type: 'string',
    description: 'File with admission control configuration (apiserver.config.k8s.io/v1 AdmissionConfiguration; the ResourceQuota plugin\'s configuration is read).',
  },
  {
    name: 'advertise-address',
    type: 'ip',
    description:
      'The IP address on which to advertise the apiserver to members of the cluster: the kubernetes Service\'s endpoints. If blank, the --bind-address is used (127.0.0.1 when that is 0.0.0.0 or ::). IPv4 only.',
  },
  {
    name: 'allow-privileged',
    type: '',
    description: 'If true, allow privileged containers. [default=false]',
  },
  {
    name: 'anonymous-auth',
    type: '',
    default: 'true',
    description:
      "Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.",
  },
  {
    name: 'api-audiences',
    type: 'strings',
    description:
      'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If not given, the first --service-account-issuer.',
  },
  {
    name: 'audit-log-maxage',
    type: 'int',
    default: '0',
    description: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
  },
  {
    name: 'audit-log-maxbackup',
    type: 'int',
    default: '0',
    description: "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
  },
  {
    name: 'audit-log-maxsize',
    type: 'int',
    default: '0',
    description: 'The maximum size in megabytes of the audit log file before it gets rotated.',
  },
  {
    name: 'audit-log-path',
    type: 'string',
    description:
      "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out. (audit.k8s.io/v1 Events, one JSON line per stage, at the levels --audit-policy-file gives)",
  },
  {
    name: 'audit-policy-file',
    type: 'string',
    description: 'Path to the file that defines the audit policy configuration. (Without it nothing is audited.)',
  },
  {
    name: 'authorization-mode',
    type: 'strings',
    default: 'RBAC',
    description: `Ordered list of plug-ins to do authorization on the secure port. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}. RBAC by default, as every Kubernetes distribution ships it; AlwaysAllow only when asked for.`,
  },
  {
    name: 'bind-address',
    type: 'ip',
    default: DEFAULT_BIND_ADDRESS,
    description:
      'The IP address on which to listen for the --secure-port and --insecure-port ports. Use 0.0.0.0 (all IPv4 interfaces) or :: (all interfaces) to listen beyond this machine.',
  },
  {
    name: 'client-ca-file',
    type: 'string',
    description:
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate (and its Organizations as groups). If not set, a client CA (client-ca.crt, client-ca.key) and an admin client certificate (admin.crt, admin.key: kapi-admin in system:masters) are generated in --data-dir and written into the admin kubeconfig.',
  },
  {
    name: 'data-dir',
    type: 'string',
    default: DEFAULT_DATA_DIR,
    description:
      'Directory for the SQLite database of --storage-backend=sqlite (kapi.db), the generated TLS material (ca.crt, ca.key, apiserver.crt, apiserver.key) and the admin kubeconfig.',
  },
  {
    name: 'default-not-ready-toleration-seconds',
    type: 'int',
    default: '300',
    description: 'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
  },
  {
    name: 'default-unreachable-toleration-seconds',
    type: 'int',
    default: '300',
    description: 'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
  },
  {
    name: 'enable-priority-and-fairness',
    type: '',
    default: 'true',
    description:
      'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness. The server concurrency (--max-requests-inflight plus --max-mutating-requests-inflight) is shared between the PriorityLevelConfigurations; FlowSchemas classify requests.',
  },
  {
    name: 'encryption-provider-config',
    type: 'string',
    description:
      'The file containing configuration for encryption providers to be used for storing secrets in etcd (apiserver.config.k8s.io/v1 EncryptionConfiguration: identity, aescbc, aesgcm, secretbox; any --storage-backend)',
  },
  { name: 'etcd-cafile', type: 'string', description: 'SSL Certificate Authority file used to secure etcd communication.' },
  { name: 'etcd-certfile', type: 'string', description: 'SSL certification file used to secure etcd communication.' },
  {
    name: 'etcd-compaction-interval',
    type: 'duration',
    default: '5m0s',
    description:
      'The interval of compaction requests. If 0, the compaction request from apiserver is disabled. Applies to every storage backend: history older than one interval is forgotten, and watches or reads at a resourceVersion that old get 410 Gone.',
  },
  { name: 'etcd-keyfile', type: 'string', description: 'SSL key file used to secure etcd communication.' },
  {
    name: 'etcd-prefix',
    type: 'string',
    default: '/registry',
    description: 'The prefix to prepend to all resource paths in etcd.',
  },
  {
    name: 'etcd-servers',
    type: 'strings',
    description: 'List of etcd servers to connect with (scheme://ip:port), comma separated. Required with --storage-backend=etcd3.',
  },
  {
    name: 'feature-gates',
    type: 'mapStringBool',
    description:
      'A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n' +
      Object.entries(FEATURE_GATES)
        .map(([name, value]) => `${name}=true|false (default=${value})`)
        .join('\n'),
  },
  { name: 'help', short: 'h', type: '', description: 'help for kapi-server' },
  {
    name: 'insecure-port',
    type: 'int',
    default: '0',
    description:
      'The port on which to serve plain HTTP on --bind-address. 0 = disabled. For local development only: there are no client certificates there, so requests authenticate by bearer token or run as anonymous, and are authorized as on the secure port.',
  },
  {
    name: 'logging-format',
    type: 'string',
    default: 'text',
    description: `Sets the log format. Permitted formats: ${LOGGING_FORMATS.map((f) => JSON.stringify(f)).join(', ')}.`,
  },
  {
    name: 'max-mutating-requests-inflight',
    type: 'int',
    default: '200',
    description:
      'This flag limits the maximum number of mutating requests in flight, or a zero value disables the limit completely.',
  },
  {
    name: 'max-requests-inflight',
    type: 'int',
    default: '400',
    description:
      'This flag limits the maximum number of non-mutating requests in flight, or a zero value disables the limit completely. Watches and other long-running requests are not counted.',
  },
  {
    name: 'max-resource-write-bytes',
    type: 'int',
    default: '3145728',
    description:
      'The maximum size in bytes of a request body (create, update, patch and delete); larger ones are answered 413 Request Entity Too Large. 0 disables the limit.',
  },
  {
    name: 'plugin',
    type: 'stringArray',
    description:
      'An ES module (a file, or a package installed where the server runs) exporting an API group to serve besides the built-in ones: `plugin` (a GroupPlugin), `plugins` (several), or `group` (a generated GroupDefinition), or one of them as the default export. Repeatable.',
  },
  {
    name: 'proxy-client-cert-file',
    type: 'string',
    description:
      "Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins. It is expected that this cert includes a signature from the CA in the --requestheader-client-ca-file flag. That CA is published in the 'extension-apiserver-authentication' configmap in the kube-system namespace. Components receiving calls from kube-aggregator should use that CA to perform their half of the mutual TLS verification. If --proxy-client-cert-file and --proxy-client-key-file are not provided, a front-proxy CA (front-proxy-ca.crt, front-proxy-ca.key) and a client certificate signed by it (front-proxy-client.crt, front-proxy-client.key: CN front-proxy-client) are generated in --data-dir on first start and reused afterwards.",
  },
  {
    name: 'proxy-client-key-file',
    type: 'string',
    description:
      'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins.',
  },
  {
    name: 'request-timeout',
    type: 'duration',
    default: '1m0s',
    description:
      "An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by a shorter ?timeout= of the request. Watches and other long-running requests are exempt. 0 disables it.",
  },
  {
    name: 'requestheader-allowed-names',
    type: 'strings',
    description:
      'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed. (front-proxy-client when the proxy client certificate is generated and this flag is not given.)',
  },
  {
    name: 'requestheader-client-ca-file',
    type: 'string',
    description:
      'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests. (The generated front-proxy CA when the proxy client certificate is generated and this flag is not given.)',
  },
  {
    name: 'requestheader-extra-headers-prefix',
    type: 'strings',
    default: 'X-Remote-Extra-',
    description: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
  },
  {
    name: 'requestheader-group-headers',
    type: 'strings',
    default: 'X-Remote-Group',
    description: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
  },
  {
    name: 'requestheader-username-headers',
    type: 'strings',
    default: 'X-Remote-User',
    description: 'List of request headers to inspect for usernames. X-Remote-User is common.',
  },
  {
    name: 'root-ca-file',
    type: 'string',
    description:
      "kube-controller-manager's flag (this server runs its controllers): if set, this root certificate authority is published as the ca.crt of every namespace's kube-root-ca.crt ConfigMap, which ServiceAccount token volumes mount. This must be a valid PEM-encoded CA bundle. If not set, the CA that signed the serving certificate (the generated one, or the chain after --tls-cert-file).",
  },
  {
    name: 'runtime-config',
    type: 'mapStringString',
    description:
      'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\n' +
      'v1=true|false for the core API group\n' +
      '<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\n' +
      'api/all=true|false controls all API versions\n' +
      'api/ga=true|false controls all API versions of the form v[0-9]+\n' +
      'api/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\n' +
      'api/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+\n' +
      'api/legacy is deprecated, and will be removed in a future version\n' +
      '(Every version this server has is on unless turned off here; a group with no version left is not served.)',
  },
  {
    name: 'secure-port',
    type: 'int',
    default: DEFAULT_SECURE_PORT,
    description: 'The port on which to serve HTTPS with authentication and authorization. 0 = disabled.',
  },
  {
    name: 'service-account-issuer',
    type: 'stringArray',
    default: 'https://kubernetes.default.svc.cluster.local',
    description:
      'Identifier of the service account token issuer: the "iss" claim of issued tokens. Repeatable: the first issues tokens, tokens of every one are accepted. When it is an https URL, the issuer\'s OpenID discovery documents are served at /.well-known/openid-configuration and /openid/v1/jwks.',
  },
  {
    name: 'service-account-jwks-uri',
    type: 'string',
    description: 'Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration (default: the issuer with /openid/v1/jwks).',
  },
  {
    name: 'service-account-key-file',
    type: 'stringArray',
    description:
      'File containing PEM-encoded x509 RSA or ECDSA private or public keys (or certificates), used to verify ServiceAccount tokens. The key of --service-account-signing-key-file always verifies. Repeatable.',
  },
  {
    name: 'service-account-max-token-expiration',
    type: 'duration',
    default: '0s',
    description: 'The maximum validity duration of a token created by the service account token issuer. A TokenRequest asking for longer gets this validity, with a warning. 0 = no maximum; otherwise between 1h and 2^32 seconds.',
  },
  {
    name: 'service-account-signing-key-file',
    type: 'string',
    description:
      'Path to the file that contains the current private key of the service account token issuer (PEM, RSA or ECDSA). If not given, an RSA key is generated in --data-dir on first start (<data-dir>/service-account.key) and reused; servers that share storage must be given the same key.',
  },
  {
    name: 'service-cluster-ip-range',
    type: 'string',
    default: '10.0.0.0/24',
    description:
      'A CIDR notation IP range from which to assign service cluster IPs. The first address is the kubernetes Service\'s. IPv4 only.',
  },
  {
    name: 'service-node-port-range',
    type: 'portRange',
    default: '30000-32767',
    description: 'A port range to reserve for services with NodePort visibility. Example: \'30000-32767\'. Inclusive at both ends of the range.',
  },
  {
    name: 'shutdown-delay-duration',
    type: 'duration',
    default: '0s',
    description:
      'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.',
  },
  {
    name: 'shutdown-send-retry-after',
    type: '',
    default: 'false',
    description:
      'If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a \'Retry-After\' response header, in addition \'Connection: close\' response header is set in order to tear down the TCP connection when idle.',
  },
  {
    name: 'storage-backend',
    type: 'string',
    default: 'sqlite',
    description: `The storage backend for persistence. Options: ${STORAGE_BACKENDS.join(', ')}. "sqlite" keeps the data in <data-dir>/kapi.db, "etcd3" in the etcd cluster of --etcd-servers, "memory" keeps nothing across restarts.`,
  },
  {
    name: 'tls-cert-file',
    type: 'string',
    description:
      'File containing the default x509 certificate for HTTPS (CA cert, if any, concatenated after server cert). If --tls-cert-file and --tls-private-key-file are not provided, a self-signed CA and serving certificate are generated in --data-dir on first start and reused afterwards.',
  },
  { name: 'tls-private-key-file', type: 'string', description: 'File containing the default x509 private key matching --tls-cert-file.' },
  {
    name: 'token-auth-file',
    type: 'string',
    description: 'If set, the file that will be used to secure the secure port of the API server via token authentication (CSV lines: token,user,uid,"group1,group2").',
  },
  {
    name: 'tracing-config-file',
    type: 'string',
    description:
      'File with apiserver tracing configuration (apiserver.config.k8s.io TracingConfiguration: endpoint, samplingRatePerMillion): OpenTelemetry spans exported over OTLP gRPC.',
  },
  { name: 'v', short: 'v', type: 'Level', default: '0', description: 'number for the log level verbosity' },
  {
    name: 'write-kubeconfig',
    type: 'string',
    default: '<data-dir>/admin.kubeconfig',
    description: 'Where to write a kubeconfig for the server\'s admin user once it listens. "" = do not write one.',
  },
];

/** The `--help` text: every flag, formatted like cobra's usage. */
export function usage(): string {
  const rows = FLAG_DOCS.map((flag) => {
    const names = flag.short ? `-${flag.short}, --${flag.name}` : `    --${flag.name}`;
    return { head: `  ${names}${flag.type ? ` ${flag.type}` : ''}`, flag };
  });
  const width = Math.max(...rows.map((r) => r.head.length)) + 3;
  const lines = rows.map(({ head, flag }) => {
    const text = flag.default !== undefined ? `${flag.description} (default ${formatDefault(flag)})` : flag.description;
    const [first, ...rest] = text.split('\n');
    return [head.padEnd(width) + first, ...rest.map((line) => ' '.repeat(width + 4) + line)].join('\n');
  });
  return [
    'The Kapi API server: a Kubernetes-compatible API server (core, apps, autoscaling, policy, coordination,',
    'rbac, authorization, authentication and wardle.example.com groups) with kube-apiserver\'s flags.',
    '',
    'Usage:',
    '  kapi-server [flags]',
    '',
    'Flags:',
    ...lines,
    '',
  ].join('\n');
}

/**
 * The service-account flags, checked as kube's ServiceAccountAuthenticationOptions.Validate does: issuers not
 * empty, not repeated, and a URL when they contain a colon; the JWKS URI an https URL; the maximum expiration 0 or
 * between 1 hour and 2^32 seconds.
 */
function serviceAccountFlags(values: Record<string, string | string[] | boolean | undefined>, cwd: string) {
  const list = (flag: string) => ((values[flag] as string[] | undefined) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const given = (values['service-account-issuer'] as string[] | undefined) ?? [];
  const serviceAccountIssuers = given.length ? given : ['https://kubernetes.default.svc.cluster.local'];
  const seen = new Set<string>();
  for (const issuer of serviceAccountIssuers) {
    if (issuer === '') throw new FlagError('service-account-issuer should not be an empty string');
    if (seen.has(issuer)) throw new FlagError(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
    seen.add(issuer);
    if (issuer.includes(':') && !URL.canParse(issuer)) throw new FlagError('service-account-issuer contained a \':\' but was not a valid URL');
  }
  const jwksUri = values['service-account-jwks-uri'] as string | undefined;
  if (jwksUri) {
    if (!URL.canParse(jwksUri) || new URL(jwksUri).protocol !== 'https:') throw new FlagError('service-account-jwks-uri requires https scheme');
  }
  const maxText = (values['service-account-max-token-expiration'] as string | undefined) ?? '0s';
  const max = parseDuration(maxText, 'service-account-max-token-expiration');
  if (max !== 0 && (max < 3_600_000 || max > 2 ** 32 * 1000)) throw new FlagError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  const signing = values['service-account-signing-key-file'] as string | undefined;
  const audiences = list('api-audiences');
  return {
    serviceAccountIssuers,
    serviceAccountSigningKeyFile: signing ? resolve(cwd, signing) : undefined,
    serviceAccountKeyFiles: ((values['service-account-key-file'] as string[] | undefined) ?? []).filter(Boolean).map((f) => resolve(cwd, f)),
    apiAudiences: audiences.length ? audiences : undefined,
    serviceAccountMaxTokenExpirationMs: max,
    serviceAccountJwksUri: jwksUri || undefined,
  };
}

/** pflag's rendering of defaults: strings quoted, lists bracketed, numbers, booleans and IPs bare. */
function formatDefault(flag: FlagDoc): string {
  if (flag.type === 'string') return JSON.stringify(flag.default);
  if (flag.type === 'strings') return `[${flag.default}]`;
  return flag.default!;
}

const PARSE_OPTIONS = {
  // A pflag bool: `--anonymous-auth` or `--anonymous-auth=false`; parseFlags spells the bare form `=true`.
  'allow-privileged': { type: 'string' },
  'anonymous-auth': { type: 'string' },
  'enable-priority-and-fairness': { type: 'string' },
  'client-ca-file': { type: 'string' },
  'token-auth-file': { type: 'string' },
  'tracing-config-file': { type: 'string' },
  'audit-log-maxage': { type: 'string' },
  'audit-log-maxbackup': { type: 'string' },
  'audit-log-maxsize': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-policy-file': { type: 'string' },
  'admission-control-config-file': { type: 'string' },
  'encryption-provider-config': { type: 'string' },
  'authorization-mode': { type: 'string', multiple: true },
  'bind-address': { type: 'string' },
  'data-dir': { type: 'string' },
  'etcd-cafile': { type: 'string' },
  'etcd-certfile': { type: 'string' },
  'etcd-compaction-interval': { type: 'string' },
  'etcd-keyfile': { type: 'string' },
  'etcd-prefix': { type: 'string' },
  'etcd-servers': { type: 'string', multiple: true },
  'feature-gates': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  'max-mutating-requests-inflight': { type: 'string' },
  'max-requests-inflight': { type: 'string' },
  'max-resource-write-bytes': { type: 'string' },
  'request-timeout': { type: 'string' },
  plugin: { type: 'string', multiple: true },
  'proxy-client-cert-file': { type: 'string' },
  'proxy-client-key-file': { type: 'string' },
  'requestheader-allowed-names': { type: 'string', multiple: true },
  'requestheader-client-ca-file': { type: 'string' },
  'root-ca-file': { type: 'string' },
  'requestheader-extra-headers-prefix': { type: 'string', multiple: true },
  'requestheader-group-headers': { type: 'string', multiple: true },
  'requestheader-username-headers': { type: 'string', multiple: true },
  'runtime-config': { type: 'string', multiple: true },
  'insecure-port': { type: 'string' },
  'secure-port': { type: 'string' },
  'service-cluster-ip-range': { type: 'string' },
  'service-node-port-range': { type: 'string' },
  'default-not-ready-toleration-seconds': { type: 'string' },
  'default-unreachable-toleration-seconds': { type: 'string' },
  'advertise-address': { type: 'string' },
  'shutdown-delay-duration': { type: 'string' },
  'shutdown-send-retry-after': { type: 'string' },
  'api-audiences': { type: 'string', multiple: true },
  'service-account-issuer': { type: 'string', multiple: true },
  'service-account-jwks-uri': { type: 'string' },
  'service-account-key-file': { type: 'string', multiple: true },
  'service-account-max-token-expiration': { type: 'string' },
  'service-account-signing-key-file': { type: 'string' },
  'logging-format': { type: 'string' },
  'storage-backend': { type: 'string' },
  'tls-cert-file': { type: 'string' },
  'tls-private-key-file': { type: 'string' },
  v: { type: 'string', short: 'v' },
  'write-kubeconfig': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Parses kapi-server's command line (without node and the script). Throws FlagError. */
export function parseFlags(argv: string[], cwd = process.cwd()): CommandLine {
  let parsed;
  try {
    const args = argv.map((arg) => (BOOL_FLAGS.has(arg) ? `${arg}=true` : arg));
    parsed = parseArgs({ args, options: PARSE_OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw toFlagError(error);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length > 0) {
    throw new FlagError(`"kapi-server" does not take any arguments, got ${JSON.stringify(positionals)}`, true);
  }

  const bindAddress = values['bind-address'] ?? DEFAULT_BIND_ADDRESS;
  if (isIP(bindAddress) === 0) throw invalid(bindAddress, 'bind-address', `failed to parse IP: ${JSON.stringify(bindAddress)}`);
  const advertiseAddress = values['advertise-address'] ?? (['0.0.0.0', '::'].includes(bindAddress) ? '127.0.0.1' : bindAddress);
  if (isIP(advertiseAddress) !== 4) throw invalid(advertiseAddress, 'advertise-address', 'must be an IPv4 address');
  const serviceClusterIPRange = values['service-cluster-ip-range'] ?? '10.0.0.0/24';
  const serviceNodePortRange = values['service-node-port-range'] ?? '30000-32767';
  try {
    parseCidr(serviceClusterIPRange);
  } catch (error) {
    throw invalid(serviceClusterIPRange, 'service-cluster-ip-range', (error as Error).message);
  }
  try {
    parsePortRange(serviceNodePortRange);
  } catch (error) {
    throw invalid(serviceNodePortRange, 'service-node-port-range', (error as Error).message);
  }
  // int64 flags, as kube's: any integer, no further check.
  const defaultNotReadyTolerationSeconds = parseInteger(values['default-not-ready-toleration-seconds'] ?? '300', 'default-not-ready-toleration-seconds');
  const defaultUnreachableTolerationSeconds = parseInteger(values['default-unreachable-toleration-seconds'] ?? '300', 'default-unreachable-toleration-seconds');
  const securePort = parsePort(values['secure-port'] ?? DEFAULT_SECURE_PORT, 'secure-port');
  const insecurePort = parsePort(values['insecure-port'] ?? '0', 'insecure-port');
  // pflag accepts `-v=4`; node's parseArgs hands the short form's value over with its '='.
  const verbosityText = (values.v ?? '0').replace(/^=/, '');
  const verbosity = parseInteger(verbosityText, '-v, --v');
  if (verbosity < 0) throw invalid(verbosityText, '-v, --v', 'level must be non-negative');
  const featureGates = parseFeatureGates(values['feature-gates'] ?? []);

  if (securePort === 0 && insecurePort === 0) {
    throw new FlagError('nothing to serve: --secure-port and --insecure-port are both 0; enable at least one');
  }
  const storageBackend = values['storage-backend'] ?? 'sqlite';
  if (!(STORAGE_BACKENDS as readonly string[]).includes(storageBackend)) {
    throw new FlagError(`--storage-backend ${JSON.stringify(storageBackend)} is not supported; available backends: ${STORAGE_BACKENDS.join(', ')}`);
  }
  const authorizationModes = (values['authorization-mode'] ?? ['RBAC']).flatMap((v) => v.split(',')).map((m) => m.trim());
  for (const mode of authorizationModes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
      throw new FlagError(`--authorization-mode ${JSON.stringify(mode)} is not supported; available modes: ${AUTHORIZATION_MODES.join(', ')}`);
    }
  }
  if (new Set(authorizationModes).size !== authorizationModes.length) {
    throw new FlagError(`authorization-mode ${JSON.stringify(authorizationModes.join(','))} has mode specified more than once`);
  }
  const etcdServers = (values['etcd-servers'] ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  for (const server of etcdServers) {
    if (!/^(https?:\/\/[^/\s]+\/?|unixs?:\/\/\S+|[^/:\s]+:\d+)$/.test(server)) {
      throw invalid(server, 'etcd-servers', 'expected scheme://host:port (http or https)');
    }
  }
  if (storageBackend === 'etcd3' && etcdServers.length === 0) throw new FlagError('--etcd-servers must be specified');
  // kube's ServerRunOptions.Validate: none of the limits can be negative.
  const nonNegative = (flag: string, fallback: string) => {
    const value = parseInteger(values[flag as keyof typeof values] as string | undefined ?? fallback, flag);
    if (value < 0) throw new FlagError(`--${flag} can not be negative value`);
    return value;
  };
  const maxResourceWriteBytes = nonNegative('max-resource-write-bytes', '3145728');
  const maxRequestsInflight = nonNegative('max-requests-inflight', '400');
  const maxMutatingRequestsInflight = nonNegative('max-mutating-requests-inflight', '200');
  const requestTimeoutMs = parseDuration(values['request-timeout'] ?? '1m0s', 'request-timeout');
  if (requestTimeoutMs < 0) throw new FlagError('--request-timeout can not be negative value');
  const auditLogFlag = values['audit-log-path'];
  const auditLogPath = !auditLogFlag ? undefined : auditLogFlag === '-' ? '-' : resolve(cwd, auditLogFlag);
  const auditLogMaxAge = nonNegative('audit-log-maxage', '0');
  const auditLogMaxBackup = nonNegative('audit-log-maxbackup', '0');
  const auditLogMaxSize = nonNegative('audit-log-maxsize', '0');
  // A file flag, made absolute against the working directory; undefined when not given (or empty).
  type FileFlag =
    | 'admission-control-config-file'
    | 'audit-policy-file'
    | 'encryption-provider-config'
    | 'etcd-cafile'
    | 'etcd-certfile'
    | 'etcd-keyfile'
    | 'client-ca-file'
    | 'token-auth-file'
    | 'tracing-config-file'
    | 'proxy-client-cert-file'
    | 'proxy-client-key-file'
    | 'requestheader-client-ca-file'
    | 'root-ca-file';
  const fileFlag = (flag: FileFlag) => (values[flag] ? resolve(cwd, values[flag]) : undefined);
  const boolFlag = (flag: 'allow-privileged' | 'anonymous-auth' | 'enable-priority-and-fairness' | 'shutdown-send-retry-after', fallback: string) => {
    const text = values[flag] ?? fallback;
    const value = parseBool(text);
    if (value === undefined) throw invalid(text, flag, `strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
    return value;
  };
  const shutdownSendRetryAfter = boolFlag('shutdown-send-retry-after', 'false');
  const anonymousAuth = boolFlag('anonymous-auth', 'true');
  const allowPrivileged = boolFlag('allow-privileged', 'false');
  const enablePriorityAndFairness = boolFlag('enable-priority-and-fairness', 'true');
  const loggingFormat = values['logging-format'] ?? 'text';
  if (!(LOGGING_FORMATS as readonly string[]).includes(loggingFormat)) {
    throw new FlagError(`logging.format: Unsupported value: ${JSON.stringify(loggingFormat)}: supported values: ${LOGGING_FORMATS.map((f) => JSON.stringify(f)).join(', ')}`);
  }
  const shutdownDelayMs = parseDuration(values['shutdown-delay-duration'] ?? '0s', 'shutdown-delay-duration');
  if (shutdownDelayMs < 0) throw new FlagError('--shutdown-delay-duration can not be negative value');
  const etcdCompactionIntervalMs = parseDuration(values['etcd-compaction-interval'] ?? '5m0s', 'etcd-compaction-interval');
  if (etcdCompactionIntervalMs < 0) throw new FlagError('--etcd-compaction-interval must be 0 (disabled) or positive');
  if (Boolean(values['etcd-certfile']) !== Boolean(values['etcd-keyfile'])) {
    throw new FlagError('--etcd-certfile and --etcd-keyfile must be given together');
  }

  const tlsCertFile = values['tls-cert-file'] || undefined;
  const tlsPrivateKeyFile = values['tls-private-key-file'] || undefined;
  if (Boolean(tlsCertFile) !== Boolean(tlsPrivateKeyFile)) {
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  }

  if (Boolean(values['proxy-client-cert-file']) !== Boolean(values['proxy-client-key-file'])) {
    throw new FlagError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  }
  // pflag string slices: comma-separated, the flag repeatable; `--flag=` alone is the empty list.
  const stringsFlag = (flag: RequestHeaderFlag): string[] | undefined => {
    const given = values[flag];
    if (given === undefined) return undefined;
    const list = given.flatMap((v) => (v === '' ? [] : v.split(',')));
    // kube's RequestHeaderAuthenticationOptions.Validate
    if (list.some((name) => name.trim() === '')) throw new FlagError(`empty value in ${JSON.stringify(flag)}`);
    return list;
  };
  const requestheaderAllowedNames = stringsFlag('requestheader-allowed-names');
  const requestheaderUsernameHeaders = stringsFlag('requestheader-username-headers') ?? ['X-Remote-User'];
  const requestheaderGroupHeaders = stringsFlag('requestheader-group-headers') ?? ['X-Remote-Group'];
  const requestheaderExtraHeadersPrefix = stringsFlag('requestheader-extra-headers-prefix') ?? ['X-Remote-Extra-'];

  const runtimeConfig = parseRuntimeConfig(values['runtime-config'] ?? []);
  try {
    validateRuntimeConfig(runtimeConfig);
  } catch (error) {
    throw new FlagError((error as Error).message);
  }
  if (enablePriorityAndFairness) {
    // kube's validateAPIPriorityAndFairness: the request gate reads flowcontrol.apiserver.k8s.io/v1 objects.
    for (const key of ['flowcontrol.apiserver.k8s.io/v1', 'api/ga', 'api/all']) {
      if (runtimeConfig[key] === 'false') throw new FlagError(`--runtime-config=${key}=false conflicts with --enable-priority-and-fairness=true`);
      if (runtimeConfig[key] === 'true') break;
    }
  }

  const serviceAccounts = serviceAccountFlags(values, cwd);

  const dataDir = resolve(cwd, values['data-dir'] ?? DEFAULT_DATA_DIR);
  const kubeconfigFlag = values['write-kubeconfig'];
  const writeKubeconfig = kubeconfigFlag === undefined ? resolve(dataDir, 'admin.kubeconfig') : kubeconfigFlag === '' ? undefined : resolve(cwd, kubeconfigFlag);

  return {
    help: false,
    config: {
      bindAddress,
      advertiseAddress,
      serviceClusterIPRange,
      serviceNodePortRange,
      defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds,
      securePort,
      insecurePort,
      storageBackend: storageBackend as StorageBackendName,
      dataDir,
      etcdServers,
      etcdPrefix: values['etcd-prefix'] ?? '/registry',
      etcdCompactionIntervalMs,
      etcdCaFile: fileFlag('etcd-cafile'),
      etcdCertFile: fileFlag('etcd-certfile'),
      etcdKeyFile: fileFlag('etcd-keyfile'),
      featureGates,
      authorizationModes: authorizationModes as AuthorizationMode[],
      clientCaFile: fileFlag('client-ca-file'),
      tokenAuthFile: fileFlag('token-auth-file'),
      rootCaFile: fileFlag('root-ca-file'),
      plugins: (values.plugin ?? []).map((p) => {
        if (p.trim() === '') throw invalid(p, 'plugin', 'empty: name an ES module file or an installed package');
        return isFileSpecifier(p) ? resolve(cwd, p) : p;
      }),
      ...serviceAccounts,
      tracingConfigFile: fileFlag('tracing-config-file'),
      anonymousAuth,
      allowPrivileged,
      tlsCertFile: tlsCertFile ? resolve(cwd, tlsCertFile) : undefined,
      tlsPrivateKeyFile: tlsPrivateKeyFile ? resolve(cwd, tlsPrivateKeyFile) : undefined,
      writeKubeconfig,
      verbosity,
      maxResourceWriteBytes,
      maxRequestsInflight,
      maxMutatingRequestsInflight,
      requestTimeoutMs,
      auditLogPath,
      auditPolicyFile: fileFlag('audit-policy-file'),
      auditLogMaxAge,
      auditLogMaxBackup,
      auditLogMaxSize,
      encryptionProviderConfig: fileFlag('encryption-provider-config'),
      admissionControlConfigFile: fileFlag('admission-control-config-file'),
      shutdownDelayMs,
      shutdownSendRetryAfter,
      enablePriorityAndFairness,
      loggingFormat: loggingFormat as LoggingFormat,
      runtimeConfig,
      proxyClientCertFile: fileFlag('proxy-client-cert-file'),
      proxyClientKeyFile: fileFlag('proxy-client-key-file'),
      requestheaderClientCaFile: fileFlag('requestheader-client-ca-file'),
      requestheaderAllowedNames,
      requestheaderUsernameHeaders,
      requestheaderGroupHeaders,
      requestheaderExtraHeadersPrefix,
    },
  };
}

/**
 * `--feature-gates` in kube's syntax: `A=true,B=false`, the flag repeatable, later values winning. Values follow
 * Go's strconv.ParseBool; unknown gates are rejected, naming the known ones.
 */
export function parseFeatureGates(values: string[]): Record<FeatureGateName, boolean> {
  const gates: Record<FeatureGateName, boolean> = { ...FEATURE_GATES };
  for (const value of values) {
    for (const pair of value.split(',')) {
      if (pair.trim() === '') continue;
      const eq = pair.indexOf('=');
      if (eq < 0) throw invalid(value, 'feature-gates', `missing bool value for ${pair.trim()}`);
      const name = pair.slice(0, eq).trim();
      const text = pair.slice(eq + 1).trim();
      if (!Object.hasOwn(FEATURE_GATES, name)) {
        throw invalid(value, 'feature-gates', `unrecognized feature gate: ${name} (known gates: ${Object.keys(FEATURE_GATES).join(', ')})`);
      }
      const enabled = parseBool(text);
      if (enabled === undefined) throw invalid(value, 'feature-gates', `invalid value of ${name}=${text}, err: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
      gates[name as FeatureGateName] = enabled;
    }
  }
  return gates;
}

type RequestHeaderFlag =
  | 'requestheader-allowed-names'
  | 'requestheader-username-headers'
  | 'requestheader-group-headers'
  | 'requestheader-extra-headers-prefix';

/** pflag bool flags, which take no value or `=<bool>`. */
const BOOL_FLAGS = new Set(['--allow-privileged', '--anonymous-auth', '--enable-priority-and-fairness', '--shutdown-send-retry-after']);

function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

function parseInteger(text: string, flag: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw invalid(text, flag, `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = Number(text);
  // Beyond 2^53 a number is no longer exact (kube's int64 flags go to 2^63, which no flag here needs).
  if (!Number.isSafeInteger(value)) throw invalid(text, flag, `strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  return value;
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`5m0s`, `1h30m`, `300ms`, `0`), as pflag's duration flags take it, in milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const fail = () => invalid(text, flag, `time: invalid duration ${JSON.stringify(text)}`);
  const match = /^([+-]?)(.*)$/.exec(text)!;
  const sign = match[1] === '-' ? -1 : 1;
  const body = match[2];
  if (body === '0') return 0;
  if (body === '') throw fail();
  let total = 0;
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let at = 0;
  while (at < body.length) {
    part.lastIndex = at;
    const m = part.exec(body);
    if (!m) throw fail();
    total += Number(m[1]) * DURATION_UNITS[m[2]];
    at = part.lastIndex;
  }
  return sign * total;
}

function parsePort(text: string, flag: string): number {
  const port = parseInteger(text, flag);
  if (port < 0 || port > 65535) throw new FlagError(`--${flag} ${port} must be between 0 and 65535, inclusive. 0 for turning off ${flag === 'secure-port' ? 'secure' : 'insecure'} port`);
  return port;
}

function invalid(value: string, flag: string, reason: string): FlagError {
  const name = flag.startsWith('-') ? flag : `--${flag}`;
  return new FlagError(`invalid argument ${JSON.stringify(value)} for "${name}" flag: ${reason}`, true);
}

/** Rewords node:util parseArgs errors the way pflag words them. */
function toFlagError(error: unknown): FlagError {
  const err = error as { code?: string; message?: string };
  const quoted = /'([^']+)'/.exec(err.message ?? '')?.[1] ?? '';
  const option = quoted.split(' ')[0];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new FlagError(option.startsWith('--') ? `unknown flag: ${option}` : `unknown shorthand flag: '${option.slice(1, 2)}' in ${option}`, true);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing|ambiguous/.test(err.message ?? '')) return new FlagError(`flag needs an argument: ${option}`, true);
      return new FlagError(err.message ?? String(error), true);
    default:
      return new FlagError(err.message ?? String(error), true);
  }
}

/** A `--plugin` value naming a file (`./x.js`, `../x.js`, `/abs/x.js`, `x.js`) rather than an installed package. */
function isFileSpecifier(value: string): boolean {
  return value.startsWith('.') || value.startsWith('/') || /\.[cm]?js$/.test(value);
}
