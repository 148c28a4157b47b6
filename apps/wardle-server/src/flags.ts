import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { STORAGE_BACKENDS, type StorageBackendName, type StorageFlags } from '@kapi/server/storage';

/** wardle-server's default `--secure-port`: not kapi-server's 6443, so both run on one machine. */
export const DEFAULT_SECURE_PORT = 8443;

export { STORAGE_BACKENDS, type StorageBackendName };

/** wardle-server's configuration, from sample-apiserver's flags (the storage ones are kapi-server's). */
export interface WardleConfig extends StorageFlags {
  bindAddress: string;
  /** 0 picks a free port (tests). */
  securePort: number;
  /** `--kubeconfig`: the main (aggregating) server; the default of the two below. */
  kubeconfig?: string;
  /** `--authentication-kubeconfig`: where TokenReviews go and the authentication ConfigMap is read. */
  authenticationKubeconfig?: string;
  /** `--authorization-kubeconfig`: where SubjectAccessReviews go. */
  authorizationKubeconfig?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  verbosity: number;
}

export class FlagError extends Error {}

const FLAGS = [
  ['bind-address', 'string', 'The IP address on which to listen for the --secure-port port.', '127.0.0.1'],
  ['secure-port', 'int', 'The port on which to serve HTTPS with authentication and authorization (0: any free port, printed at start).', String(DEFAULT_SECURE_PORT)],
  ['kubeconfig', 'string', "kubeconfig file pointing at the 'core' kubernetes server (the aggregating kapi-server); the default of --authentication-kubeconfig and --authorization-kubeconfig. Its user needs the bindings of deploy/ (system:masters, as kapi-server's admin.kubeconfig, needs none).", undefined],
  ['authentication-kubeconfig', 'string', "kubeconfig file pointing at the 'core' kubernetes server with enough rights to create tokenreviews.authentication.k8s.io and to read configmap kube-system/extension-apiserver-authentication.", undefined],
  ['authorization-kubeconfig', 'string', "kubeconfig file pointing at the 'core' kubernetes server with enough rights to create subjectaccessreviews.authorization.k8s.io.", undefined],
  ['storage-backend', 'string', `The storage backend for persistence. Options: ${STORAGE_BACKENDS.join(', ')}. "sqlite" keeps the data in <data-dir>/wardle.db.`, 'sqlite'],
  ['data-dir', 'string', 'Directory of the SQLite database and the generated serving certificate.', './.kapi/wardle'],
  ['etcd-servers', 'strings', 'List of etcd servers to connect with (scheme://ip:port), comma separated (--storage-backend=etcd3).', undefined],
  ['etcd-prefix', 'string', 'The prefix to prepend to all resource paths in etcd.', '/registry'],
  ['etcd-cafile', 'string', 'SSL Certificate Authority file used to secure etcd communication.', undefined],
  ['etcd-certfile', 'string', 'SSL certification file used to secure etcd communication.', undefined],
  ['etcd-keyfile', 'string', 'SSL key file used to secure etcd communication.', undefined],
  ['tls-cert-file', 'string', 'File containing the default x509 certificate for HTTPS. If --tls-cert-file and --tls-private-key-file are not provided, a self-signed CA and serving certificate are generated in --data-dir.', undefined],
  ['tls-private-key-file', 'string', 'File containing the default x509 private key matching --tls-cert-file.', undefined],
  ['v', 'int', 'number for the log level verbosity', '0'],
] as const;

/** The help text (`--help`). */
export function usage(): string {
  const rows = FLAGS.map(([name, type, description, def]) => {
    const head = `  ${name === 'v' ? '-v, --v' : `    --${name}`} ${type}`;
    const shown = def === undefined ? description : `${description} (default ${type === 'string' ? JSON.stringify(def) : def})`;
    return { head, shown };
  });
  const width = Math.max(...rows.map((r) => r.head.length)) + 3;
  return [
    'wardle-server: an extension API server for wardle.example.com (flunders, fischers), behind an aggregating',
    'kapi-server, with authentication and authorization delegated to it (as kube\'s sample-apiserver).',
    '',
    'Usage:',
    '  wardle-server [flags]',
    '',
    'Flags:',
    `  -h, --help${' '.repeat(Math.max(1, width - 12))}help for wardle-server`,
    ...rows.map((r) => r.head.padEnd(width) + r.shown),
    '',
  ].join('\n');
}

const OPTIONS = Object.fromEntries([
  ...FLAGS.map(([name, type]) => [name, { type: 'string', ...(type === 'strings' ? { multiple: true } : {}), ...(name === 'v' ? { short: 'v' } : {}) }]),
  ['help', { type: 'boolean', short: 'h' }],
]) as Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

/** Parses wardle-server's command line (without node and the script). Throws FlagError. */
export function parseFlags(argv: string[], cwd = process.cwd()): { help: true } | { help: false; config: WardleConfig } {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values as typeof values;
  } catch (error) {
    throw new FlagError((error as Error).message);
  }
  if (values.help) return { help: true };
  const str = (name: string) => values[name] as string | undefined;
  const file = (name: string) => (str(name) ? resolve(cwd, str(name)!) : undefined);
  const bindAddress = str('bind-address') ?? '127.0.0.1';
  if (isIP(bindAddress) === 0) throw new FlagError(`invalid argument "${bindAddress}" for "--bind-address" flag: failed to parse IP`);
  const int = (name: string, def: string) => {
    const text = (str(name) ?? def).replace(/^=/, '');
    if (!/^\d+$/.test(text)) throw new FlagError(`invalid argument "${text}" for "--${name}" flag: parse error`);
    return Number(text);
  };
  const securePort = int('secure-port', String(DEFAULT_SECURE_PORT));
  if (securePort > 65535) throw new FlagError(`--secure-port ${securePort} must be between 0 and 65535, inclusive. 0 for turning off secure port`);
  const storageBackend = str('storage-backend') ?? 'sqlite';
  if (!(STORAGE_BACKENDS as readonly string[]).includes(storageBackend)) {
    throw new FlagError(`--storage-backend ${JSON.stringify(storageBackend)} is not supported; available backends: ${STORAGE_BACKENDS.join(', ')}`);
  }
  const etcdServers = ((values['etcd-servers'] as string[] | undefined) ?? []).flatMap((v) => v.split(',')).filter((v) => v !== '');
  if (storageBackend === 'etcd3' && etcdServers.length === 0) throw new FlagError('--etcd-servers must be specified with --storage-backend=etcd3');
  if (!!str('tls-cert-file') !== !!str('tls-private-key-file')) throw new FlagError('--tls-cert-file and --tls-private-key-file go together');
  const kubeconfig = file('kubeconfig');
  const authenticationKubeconfig = file('authentication-kubeconfig') ?? kubeconfig;
  const authorizationKubeconfig = file('authorization-kubeconfig') ?? kubeconfig;
  if (!authenticationKubeconfig || !authorizationKubeconfig) {
    throw new FlagError('no kubeconfig for the main server: set --kubeconfig (or --authentication-kubeconfig and --authorization-kubeconfig); wardle-server does not run in-cluster');
  }
  return {
    help: false,
    config: {
      bindAddress,
      securePort,
      kubeconfig,
      authenticationKubeconfig,
      authorizationKubeconfig,
      storageBackend: storageBackend as StorageBackendName,
      dataDir: resolve(cwd, str('data-dir') ?? './.kapi/wardle'),
      etcdServers,
      etcdPrefix: str('etcd-prefix') ?? '/registry',
      etcdCaFile: file('etcd-cafile'),
      etcdCertFile: file('etcd-certfile'),
      etcdKeyFile: file('etcd-keyfile'),
      tlsCertFile: file('tls-cert-file'),
      tlsPrivateKeyFile: file('tls-private-key-file'),
      verbosity: int('v', '0'),
    },
  };
}
