import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURE_GATES, FlagError, parseFlags, usage, type ServerConfig } from '../src/flags.js';

const cwd = '/srv/kapi';
const config = (...argv: string[]): ServerConfig => {
  const parsed = parseFlags(argv, cwd);
  if (parsed.help) throw new Error('unexpected --help');
  return parsed.config;
};
const failure = (...argv: string[]): FlagError => {
  try {
    parseFlags(argv, cwd);
  } catch (error) {
    expect(error).toBeInstanceOf(FlagError);
    return error as FlagError;
  }
  throw new Error(`parseFlags(${argv.join(' ')}) did not fail`);
};

describe('parseFlags', () => {
  it('has kube-apiserver-like defaults', () => {
    expect(config()).toEqual({
      bindAddress: '127.0.0.1',
      advertiseAddress: '127.0.0.1',
      serviceClusterIPRange: '10.0.0.0/24',
      serviceNodePortRange: '30000-32767',
      defaultNotReadyTolerationSeconds: 300,
      defaultUnreachableTolerationSeconds: 300,
      securePort: 6443,
      insecurePort: 0,
      storageBackend: 'sqlite',
      dataDir: resolve(cwd, '.kapi'),
      etcdServers: [],
      plugins: [],
      etcdPrefix: '/registry',
      etcdCompactionIntervalMs: 300_000,
      etcdCaFile: undefined,
      etcdCertFile: undefined,
      etcdKeyFile: undefined,
      featureGates: {
        CBORServingAndStorage: false,
        APIResponseCompression: true,
        AllowUnsafeMalformedObjectDeletion: false,
        ListFromCacheSnapshot: true,
        WatchList: false,
      },
      authorizationModes: ['RBAC'],
      clientCaFile: undefined,
      tokenAuthFile: undefined,
      serviceAccountIssuers: ['https://kubernetes.default.svc.cluster.local'],
      serviceAccountKeyFiles: [],
      serviceAccountMaxTokenExpirationMs: 0,
      anonymousAuth: true,
      tlsCertFile: undefined,
      tlsPrivateKeyFile: undefined,
      writeKubeconfig: resolve(cwd, '.kapi/admin.kubeconfig'),
      verbosity: 0,
      maxResourceWriteBytes: 3 * 1024 * 1024,
      maxRequestsInflight: 400,
      maxMutatingRequestsInflight: 200,
      requestTimeoutMs: 60_000,
      auditLogPath: undefined,
      auditPolicyFile: undefined,
      auditLogMaxAge: 0,
      auditLogMaxBackup: 0,
      auditLogMaxSize: 0,
      encryptionProviderConfig: undefined,
      admissionControlConfigFile: undefined,
      shutdownDelayMs: 0,
      shutdownSendRetryAfter: false,
      enablePriorityAndFairness: true,
      allowPrivileged: false,
      loggingFormat: 'text',
      runtimeConfig: {},
      requestheaderUsernameHeaders: ['X-Remote-User'],
      requestheaderGroupHeaders: ['X-Remote-Group'],
      requestheaderExtraHeadersPrefix: ['X-Remote-Extra-'],
    });
    expect(config().requestheaderAllowedNames).toBeUndefined();
  });

  it('front-proxy flags: the proxy client certificate pair, the request-header CA, names and headers', () => {
    expect(
      config(
        '--proxy-client-cert-file=fp.crt', '--proxy-client-key-file', 'fp.key', '--requestheader-client-ca-file=fp-ca.crt',
        '--requestheader-allowed-names=aggregator,front-proxy-client', '--requestheader-username-headers=X-Remote-User,X-User',
        '--requestheader-group-headers=X-Remote-Group', '--requestheader-group-headers=X-Groups', '--requestheader-extra-headers-prefix=',
      ),
    ).toMatchObject({
      proxyClientCertFile: resolve(cwd, 'fp.crt'),
      proxyClientKeyFile: resolve(cwd, 'fp.key'),
      requestheaderClientCaFile: resolve(cwd, 'fp-ca.crt'),
      requestheaderAllowedNames: ['aggregator', 'front-proxy-client'],
      requestheaderUsernameHeaders: ['X-Remote-User', 'X-User'],
      requestheaderGroupHeaders: ['X-Remote-Group', 'X-Groups'],
      requestheaderExtraHeadersPrefix: [],
    });
    // Given empty, allowed names are the empty list (any certificate the CA signed), not the default.
    expect(config('--requestheader-allowed-names=').requestheaderAllowedNames).toEqual([]);
    expect(failure('--proxy-client-cert-file=fp.crt').message).toBe('--proxy-client-cert-file and --proxy-client-key-file must be given together');
    expect(failure('--requestheader-username-headers=X-Remote-User, ').message).toBe('empty value in "requestheader-username-headers"');
  });

  it("--runtime-config: kube's key=value pairs, checked with kube's messages", () => {
    expect(config('--runtime-config=wardle.example.com/v1alpha1=false', '--runtime-config', 'api/beta=true,v1').runtimeConfig).toEqual({
      'wardle.example.com/v1alpha1': 'false',
      'api/beta': 'true',
      v1: '',
    });
    expect(failure('--runtime-config=api/all=false').message).toBe('invalid runtime-config with only api/all=false');
    expect(failure('--runtime-config=apps/v1=yes').message).toBe('invalid value of apps/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax');
    expect(failure('--runtime-config=a/b/c/d').message).toBe('runtime-config invalid key a/b/c/d');
    expect(failure('--runtime-config=api/all=false,apps/v1=true').message).toBe('--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true');
    expect(failure('--runtime-config=flowcontrol.apiserver.k8s.io/v1=false').message).toBe(
      '--runtime-config=flowcontrol.apiserver.k8s.io/v1=false conflicts with --enable-priority-and-fairness=true',
    );
    expect(config('--runtime-config=api/all=false,apps/v1=true', '--enable-priority-and-fairness=false').runtimeConfig).toEqual({ 'api/all': 'false', 'apps/v1': 'true' });
    expect(config('--runtime-config=api/ga=false,flowcontrol.apiserver.k8s.io/v1=true').runtimeConfig['api/ga']).toBe('false');
  });

  it('request limits and the audit log: kube flags, kube defaults, no negative values', () => {
    expect(config('--max-resource-write-bytes=1024', '--max-requests-inflight', '0', '--max-mutating-requests-inflight=5', '--request-timeout=30s')).toMatchObject({
      maxResourceWriteBytes: 1024, maxRequestsInflight: 0, maxMutatingRequestsInflight: 5, requestTimeoutMs: 30_000,
    });
    expect(failure('--max-requests-inflight=-1').message).toBe('--max-requests-inflight can not be negative value');
    expect(failure('--request-timeout=-1s').message).toBe('--request-timeout can not be negative value');
    expect(failure('--request-timeout=soon').message).toBe('invalid argument "soon" for "--request-timeout" flag: time: invalid duration "soon"');
    expect(config('--audit-log-path=logs/audit.log').auditLogPath).toBe(resolve(cwd, 'logs/audit.log'));
    expect(config('--audit-log-path=-').auditLogPath).toBe('-');
    expect(config('--audit-policy-file=policy.yaml', '--audit-log-maxage=7', '--audit-log-maxbackup', '3', '--audit-log-maxsize=100')).toMatchObject({
      auditPolicyFile: resolve(cwd, 'policy.yaml'), auditLogMaxAge: 7, auditLogMaxBackup: 3, auditLogMaxSize: 100,
    });
    expect(() => config('--audit-log-maxsize=-1')).toThrow('--audit-log-maxsize can not be negative value');
    expect(config('--encryption-provider-config=enc.yaml').encryptionProviderConfig).toBe(resolve(cwd, 'enc.yaml'));
    expect(config('--admission-control-config-file=admission.yaml').admissionControlConfigFile).toBe(resolve(cwd, 'admission.yaml'));
    expect(config('--shutdown-delay-duration=70s').shutdownDelayMs).toBe(70_000);
  });

  it('service-account flags: kube\'s names, defaults and checks', () => {
    expect(config()).toMatchObject({
      serviceAccountIssuers: ['https://kubernetes.default.svc.cluster.local'],
      serviceAccountKeyFiles: [],
      serviceAccountMaxTokenExpirationMs: 0,
    });
    expect(config(
      '--service-account-issuer=https://a.example', '--service-account-issuer', 'b', '--service-account-signing-key-file=sa.key',
      '--service-account-key-file=old.pub', '--service-account-key-file=new.pub', '--api-audiences=x,y', '--service-account-max-token-expiration=24h',
      '--service-account-jwks-uri=https://a.example/keys',
    )).toMatchObject({
      serviceAccountIssuers: ['https://a.example', 'b'],
      serviceAccountSigningKeyFile: resolve(cwd, 'sa.key'),
      serviceAccountKeyFiles: [resolve(cwd, 'old.pub'), resolve(cwd, 'new.pub')],
      apiAudiences: ['x', 'y'],
      serviceAccountMaxTokenExpirationMs: 24 * 3_600_000,
      serviceAccountJwksUri: 'https://a.example/keys',
    });
    expect(failure('--service-account-max-token-expiration=30m').message).toBe('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    expect(failure('--service-account-issuer=a', '--service-account-issuer=a').message).toBe('service-account-issuer "a" is already specified');
    expect(failure('--service-account-issuer=http://[x').message).toBe("service-account-issuer contained a ':' but was not a valid URL");
    expect(failure('--service-account-jwks-uri=http://a.example/keys').message).toBe('service-account-jwks-uri requires https scheme');
  });

  it('takes values as --flag=value and --flag value', () => {
    const c = config('--bind-address=0.0.0.0', '--secure-port', '7443', '--insecure-port=8080', '--data-dir', '/var/lib/kapi');
    expect(c).toMatchObject({ bindAddress: '0.0.0.0', securePort: 7443, insecurePort: 8080, dataDir: '/var/lib/kapi' });
    expect(c.writeKubeconfig).toBe('/var/lib/kapi/admin.kubeconfig');
  });

  it('--secure-port=0 turns HTTPS off when the insecure port is on; both off is an error', () => {
    expect(config('--secure-port=0', '--insecure-port=8080')).toMatchObject({ securePort: 0, insecurePort: 8080 });
    expect(failure('--secure-port=0').message).toMatch(/--secure-port and --insecure-port are both 0/);
  });

  it('rejects bad ports and addresses like pflag', () => {
    expect(failure('--secure-port=abc').message).toBe('invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax');
    expect(failure('--secure-port=70000').message).toMatch(/--secure-port 70000 must be between 0 and 65535/);
    expect(failure('--bind-address=localhost').message).toMatch(/invalid argument "localhost" for "--bind-address" flag/);
    expect(failure('--service-cluster-ip-range=10.0.0.0/33').message).toBe('invalid argument "10.0.0.0/33" for "--service-cluster-ip-range" flag: invalid CIDR address: 10.0.0.0/33');
    expect(failure('--service-cluster-ip-range=10.0.0.0/31').message).toMatch(/is too small: it needs at least 4 addresses$/);
    expect(failure('--service-node-port-range=32767-30000').message).toBe(
      'invalid argument "32767-30000" for "--service-node-port-range" flag: invalid port range "32767-30000": expected <from>-<to> within 1-65535',
    );
    expect(config('--default-not-ready-toleration-seconds=0', '--default-unreachable-toleration-seconds=7200')).toMatchObject({
      defaultNotReadyTolerationSeconds: 0,
      defaultUnreachableTolerationSeconds: 7200,
    });
    expect(failure('--default-not-ready-toleration-seconds=5m').message).toBe(
      'invalid argument "5m" for "--default-not-ready-toleration-seconds" flag: strconv.ParseInt: parsing "5m": invalid syntax',
    );
    expect(failure('--default-unreachable-toleration-seconds=99999999999999999999').message).toMatch(/value out of range$/);
    expect(failure('--advertise-address=::1').message).toBe('invalid argument "::1" for "--advertise-address" flag: must be an IPv4 address');
    expect(failure('--secure-port').message).toBe('flag needs an argument: --secure-port');
  });

  it('parses -v in its kube forms', () => {
    expect(config('-v', '4').verbosity).toBe(4);
    expect(config('-v=3').verbosity).toBe(3);
    expect(config('--v=2').verbosity).toBe(2);
    expect(config('-v5').verbosity).toBe(5);
    expect(failure('--v=loud').message).toMatch(/invalid argument "loud" for "-v, --v" flag/);
  });

  describe('--feature-gates', () => {
    it('parses A=true,B=false over the defaults, repeatable, later wins, Go bool spellings', () => {
      const gates = config('--feature-gates=WatchList=true,APIResponseCompression=false', '--feature-gates', 'CBORServingAndStorage=T,WatchList=0').featureGates;
      expect(gates).toEqual({ ...FEATURE_GATES, APIResponseCompression: false, CBORServingAndStorage: true, WatchList: false });
    });

    it('rejects unknown gates, naming the known ones', () => {
      const error = failure('--feature-gates=WatchList=true,NoSuchGate=true');
      expect(error.message).toMatch(/^invalid argument "WatchList=true,NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate/);
      expect(error.message).toContain('ListFromCacheSnapshot');
    });

    it('rejects values that are not bools and pairs without a value', () => {
      expect(failure('--feature-gates=WatchList=yes').message).toMatch(/invalid value of WatchList=yes.*ParseBool/);
      expect(failure('--feature-gates=WatchList').message).toMatch(/missing bool value for WatchList/);
    });
  });

  it('rejects an unknown flag the way kube does, with usage', () => {
    const error = failure('--etcd-servers-overrides=/events#http://127.0.0.1:2379');
    expect(error.message).toBe('unknown flag: --etcd-servers-overrides');
    expect(error.usage).toBe(true);
    expect(failure('-x').message).toBe("unknown shorthand flag: 'x' in -x");
    expect(failure('serve').message).toMatch(/does not take any arguments/);
  });

  it('accepts only the storage backends and authorization modes that exist, naming them', () => {
    const storage = failure('--storage-backend=etcd2');
    expect(storage.message).toBe('--storage-backend "etcd2" is not supported; available backends: sqlite, etcd3, memory');
    expect(storage.usage).toBe(false);
    expect(config('--storage-backend=memory').storageBackend).toBe('memory');
    expect(config('--storage-backend=sqlite').storageBackend).toBe('sqlite');
    expect(failure('--authorization-mode=Node,RBAC').message).toBe('--authorization-mode "Node" is not supported; available modes: AlwaysAllow, AlwaysDeny, RBAC');
    expect(config('--authorization-mode=AlwaysAllow').authorizationModes).toEqual(['AlwaysAllow']);
    expect(config('--authorization-mode=RBAC,AlwaysDeny').authorizationModes).toEqual(['RBAC', 'AlwaysDeny']);
    expect(config('--authorization-mode', 'RBAC', '--authorization-mode=AlwaysAllow').authorizationModes).toEqual(['RBAC', 'AlwaysAllow']);
    expect(failure('--authorization-mode=RBAC,RBAC').message).toBe('authorization-mode "RBAC,RBAC" has mode specified more than once');
  });

  it('authentication flags: --client-ca-file, --token-auth-file, --anonymous-auth (a pflag bool, default true)', () => {
    const c = config('--client-ca-file=ca.pem', '--token-auth-file', '/etc/kapi/tokens.csv');
    expect(c).toMatchObject({ clientCaFile: resolve(cwd, 'ca.pem'), tokenAuthFile: '/etc/kapi/tokens.csv', anonymousAuth: true });
    expect(config('--anonymous-auth=false').anonymousAuth).toBe(false);
    expect(config('--anonymous-auth=0').anonymousAuth).toBe(false);
    expect(config('--anonymous-auth').anonymousAuth).toBe(true);
    expect(config('--anonymous-auth=true').anonymousAuth).toBe(true);
    expect(failure('--anonymous-auth=maybe').message).toBe('invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax');
    // A bool flag takes no separate value, as in pflag.
    expect(failure('--anonymous-auth', 'false').message).toMatch(/does not take any arguments/);
  });

  it('--allow-privileged: a pflag bool, off by default as in kube', () => {
    expect(config('--allow-privileged').allowPrivileged).toBe(true);
    expect(config('--allow-privileged=false').allowPrivileged).toBe(false);
    expect(failure('--allow-privileged=sometimes').message).toBe(
      'invalid argument "sometimes" for "--allow-privileged" flag: strconv.ParseBool: parsing "sometimes": invalid syntax',
    );
  });

  it('--enable-priority-and-fairness: a pflag bool, on by default as in kube 1.33', () => {
    expect(config('--enable-priority-and-fairness=false').enablePriorityAndFairness).toBe(false);
    expect(config('--enable-priority-and-fairness').enablePriorityAndFairness).toBe(true);
    expect(failure('--enable-priority-and-fairness=maybe').message).toBe(
      'invalid argument "maybe" for "--enable-priority-and-fairness" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });

  it('operability flags: --logging-format (text or json), --shutdown-send-retry-after (a pflag bool)', () => {
    expect(config('--logging-format=json').loggingFormat).toBe('json');
    expect(config('--logging-format', 'text').loggingFormat).toBe('text');
    expect(failure('--logging-format=xml').message).toBe('logging.format: Unsupported value: "xml": supported values: "text", "json"');
    expect(config('--shutdown-send-retry-after').shutdownSendRetryAfter).toBe(true);
    expect(config('--shutdown-send-retry-after=false').shutdownSendRetryAfter).toBe(false);
    expect(failure('--shutdown-send-retry-after=soon').message).toBe(
      'invalid argument "soon" for "--shutdown-send-retry-after" flag: strconv.ParseBool: parsing "soon": invalid syntax',
    );
  });

  describe('etcd flags', () => {
    it('--storage-backend=etcd3 takes --etcd-servers as a list, comma separated and repeatable', () => {
      const c = config('--storage-backend=etcd3', '--etcd-servers=http://10.0.0.1:2379,https://etcd-1.example:2379', '--etcd-servers', 'http://[::1]:2379');
      expect(c).toMatchObject({ storageBackend: 'etcd3', etcdServers: ['http://10.0.0.1:2379', 'https://etcd-1.example:2379', 'http://[::1]:2379'], etcdPrefix: '/registry' });
      expect(failure('--storage-backend=etcd3').message).toBe('--etcd-servers must be specified');
      expect(failure('--storage-backend=etcd3', '--etcd-servers=http://a:1/path').message).toMatch(/invalid argument "http:\/\/a:1\/path" for "--etcd-servers" flag/);
    });

    it('--etcd-prefix and the TLS files, resolved against the working directory', () => {
      const c = config('--etcd-prefix=/kapi', '--etcd-cafile=ca.pem', '--etcd-certfile=/tls/client.pem', '--etcd-keyfile=client-key.pem');
      expect(c).toMatchObject({ etcdPrefix: '/kapi', etcdCaFile: resolve(cwd, 'ca.pem'), etcdCertFile: '/tls/client.pem', etcdKeyFile: resolve(cwd, 'client-key.pem') });
      expect(failure('--etcd-certfile=client.pem').message).toMatch(/must be given together/);
    });

    it('--etcd-compaction-interval takes Go durations; 0 disables compaction', () => {
      expect(config('--etcd-compaction-interval=0').etcdCompactionIntervalMs).toBe(0);
      expect(config('--etcd-compaction-interval=1h30m').etcdCompactionIntervalMs).toBe(5_400_000);
      expect(config('--etcd-compaction-interval', '2.5s').etcdCompactionIntervalMs).toBe(2500);
      expect(config('--etcd-compaction-interval=300ms').etcdCompactionIntervalMs).toBe(300);
      expect(failure('--etcd-compaction-interval=5').message).toBe('invalid argument "5" for "--etcd-compaction-interval" flag: time: invalid duration "5"');
      expect(failure('--etcd-compaction-interval=-1m').message).toMatch(/must be 0 \(disabled\) or positive/);
    });
  });

  it('needs --tls-cert-file and --tls-private-key-file together, resolved against the working directory', () => {
    expect(failure('--tls-cert-file=server.crt').message).toMatch(/must be given together/);
    expect(config('--tls-cert-file=server.crt', '--tls-private-key-file=/etc/kapi/server.key')).toMatchObject({
      tlsCertFile: resolve(cwd, 'server.crt'),
      tlsPrivateKeyFile: '/etc/kapi/server.key',
    });
  });

  it('--write-kubeconfig takes a path, or "" for none', () => {
    expect(config('--write-kubeconfig=kube/admin.yaml').writeKubeconfig).toBe(resolve(cwd, 'kube/admin.yaml'));
    expect(config('--write-kubeconfig=').writeKubeconfig).toBeUndefined();
  });

  it('--help and -h win over everything else', () => {
    expect(parseFlags(['--help'])).toEqual({ help: true });
    expect(parseFlags(['--secure-port=1', '-h'])).toEqual({ help: true });
  });

  it('usage documents every flag and every feature gate', () => {
    const text = usage();
    for (const flag of [
      '--bind-address', '--secure-port', '--insecure-port', '--storage-backend', '--data-dir', '--feature-gates',
      '--authorization-mode', '--tls-cert-file', '--tls-private-key-file', '--write-kubeconfig', '-v, --v', '-h, --help',
      '--client-ca-file', '--token-auth-file', '--anonymous-auth', '--runtime-config', '--proxy-client-cert-file',
      '--proxy-client-key-file', '--requestheader-client-ca-file', '--requestheader-allowed-names',
      '--requestheader-username-headers', '--requestheader-group-headers', '--requestheader-extra-headers-prefix',
      '--etcd-servers', '--etcd-prefix', '--etcd-compaction-interval', '--etcd-cafile', '--etcd-certfile', '--etcd-keyfile',
    ]) {
      expect(text).toContain(flag);
    }
    for (const gate of Object.keys(FEATURE_GATES)) expect(text).toContain(`${gate}=true|false`);
    expect(text).toMatch(/--etcd-compaction-interval duration +.*\(default 5m0s\)/);
    expect(text).toMatch(/--storage-backend string +.*\(default "sqlite"\)/);
    expect(text).toMatch(/--requestheader-username-headers strings +.*\(default \[X-Remote-User\]\)/);
    expect(text).toMatch(/--runtime-config mapStringString +A set of key=value pairs/);
    expect(text).toMatch(/--anonymous-auth +Enables anonymous requests.*\(default true\)/);
    expect(text).toMatch(/--authorization-mode strings +.*AlwaysAllow,AlwaysDeny,RBAC\. RBAC by default.*\(default \[RBAC\]\)/);
  });
});
