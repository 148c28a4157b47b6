import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { execConfigProblems, type ExecConfig } from './exec-credential.js';

/** Where a client connects and who it is. */
export interface ClientConfig {
  /** The API server's base URL: `https://host:6443`. */
  server: string;
  /** PEM CA bundle the server's certificate must chain to (the system's CAs when unset). */
  ca?: string | Buffer;
  /** PEM client certificate and key, for x509 authentication. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** A bearer token. */
  token?: string;
  /** A file holding the bearer token, read again once a minute (rotated service account tokens). */
  tokenFile?: string;
  /** Basic authentication. */
  username?: string;
  password?: string;
  /**
   * A credential plugin run for a token or client certificate when no token or password is given (kubeconfig
   * `user.exec`: EKS, GKE, kubelogin...). Its answer is kept until it expires or the server answers 401.
   */
  exec?: ExecConfig;
  /** The cluster's `client.authentication.k8s.io/exec` extension, handed to the plugin with `provideClusterInfo`. */
  execClusterConfig?: unknown;
  /** Skip checking the server's certificate: only for throwaway test servers. */
  insecureSkipTLSVerify?: boolean;
  /** The name the server's certificate must carry, when it is not the URL's host. */
  tlsServerName?: string;
  /** Sends requests itself instead of over the network: e.g. a Kapi server's in-process `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** The User-Agent header. */
  userAgent?: string;
}

interface Kubeconfig {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user?: string; namespace?: string } }[];
  clusters?: { name: string; cluster: Record<string, unknown> & { extensions?: { name?: string; extension?: unknown }[] } }[];
  users?: { name: string; user: Record<string, unknown> }[];
}

export interface KubeconfigOptions {
  /** The kubeconfig file; by default the first of $KUBECONFIG, else ~/.kube/config. */
  path?: string;
  /** The kubeconfig's text instead of a file (relative paths in it resolve against the working directory). */
  text?: string;
  /** The context to use instead of the file's current-context. */
  context?: string;
}

/** A loaded kubeconfig context: the connection, and the context's namespace (`default` when it names none). */
export interface LoadedKubeconfig extends ClientConfig {
  namespace: string;
  context: string;
}

function defaultPath(): string {
  const env = process.env.KUBECONFIG?.split(delimiter).find((p) => p.length > 0);
  return env ?? join(homedir(), '.kube', 'config');
}

/**
 * Reads a kubeconfig's context: server, CA, client certificate and key, token or basic credentials, from inline
 * `*-data` or files (relative to the kubeconfig), and an exec credential plugin (checked as client-go checks it; run
 * by the client when it first needs credentials). auth-provider plugins (removed from client-go but for OIDC) are
 * refused with a clear error.
 */
export function loadKubeconfig(options: KubeconfigOptions = {}): LoadedKubeconfig {
  const path = options.text === undefined ? resolve(options.path ?? defaultPath()) : undefined;
  const text = options.text ?? readFileSync(path!, 'utf8');
  const base = path ? dirname(path) : process.cwd();
  const doc = (parse(text) ?? {}) as Kubeconfig;
  const where = path ?? 'the kubeconfig';
  const contextName = options.context ?? doc['current-context'];
  if (!contextName) throw new Error(`${where} has no current-context; name one`);
  const context = doc.contexts?.find((c) => c.name === contextName)?.context;
  if (!context) throw new Error(`${where} has no context "${contextName}"`);
  const cluster = doc.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) throw new Error(`${where}: context "${contextName}" names cluster "${context.cluster}", which it does not have`);
  const user = context.user === undefined ? {} : doc.users?.find((u) => u.name === context.user)?.user;
  if (!user) throw new Error(`${where}: context "${contextName}" names user "${context.user}", which it does not have`);
  if (user['auth-provider']) {
    throw new Error(`${where}: user "${context.user}" authenticates with an auth-provider plugin, which @kapi/client does not run; use its exec plugin (kubelogin for OIDC), a token or a client certificate`);
  }
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const file = (v: unknown) => (str(v) === undefined ? undefined : isAbsolute(v as string) ? (v as string) : join(base, v as string));
  const exec = user.exec === undefined || user.exec === null ? undefined : execFrom(user.exec, context.user ?? '', base, where);
  const data = (inline: unknown, fileName: unknown): Buffer | undefined => {
    if (str(inline)) return Buffer.from(inline as string, 'base64');
    const f = file(fileName);
    return f === undefined ? undefined : readFileSync(f);
  };
  if (str(cluster['proxy-url'])) {
    throw new Error(`${where}: cluster "${context.cluster}" is reached through proxy-url, which @kapi/client does not support`);
  }
  const server = str(cluster.server);
  if (!server) throw new Error(`${where}: cluster "${context.cluster}" has no server`);
  return {
    server,
    ca: data(cluster['certificate-authority-data'], cluster['certificate-authority']),
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: str(cluster['tls-server-name']),
    cert: data(user['client-certificate-data'], user['client-certificate']),
    key: data(user['client-key-data'], user['client-key']),
    token: str(user.token),
    tokenFile: file(user.tokenFile),
    username: str(user.username),
    password: str(user.password),
    exec,
    execClusterConfig: exec?.provideClusterInfo ? cluster.extensions?.find((e) => e?.name === 'client.authentication.k8s.io/exec')?.extension : undefined,
    namespace: str(context.namespace) ?? 'default',
    context: contextName,
  };
}

/** A user's `exec` entry, refused with client-go's messages when it is unusable; a relative command with a `/` in it is the kubeconfig's. */
function execFrom(raw: unknown, user: string, base: string, where: string): ExecConfig {
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${where}: user "${user}" has an exec entry that is not an object`);
  const exec = raw as Partial<ExecConfig>;
  const problems = execConfigProblems(exec, user);
  if (problems.length) throw new Error(`${where}: invalid configuration: ${problems.join(', ')}`);
  const command = exec.command!.includes('/') && !isAbsolute(exec.command!) ? join(base, exec.command!) : exec.command!;
  return { ...exec, command, interactiveMode: exec.interactiveMode ?? 'IfAvailable' } as ExecConfig;
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The configuration of a process running in a pod: the service's address, the mounted CA, token and namespace. */
export function inClusterConfig(): LoadedKubeconfig {
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('not in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set');
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ca: readFileSync(join(SERVICE_ACCOUNT, 'ca.crt')),
    tokenFile: join(SERVICE_ACCOUNT, 'token'),
    namespace: readFileSync(join(SERVICE_ACCOUNT, 'namespace'), 'utf8').trim(),
    context: 'in-cluster',
  };
}
