import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { yamlLibrary } from '../../yaml-library.js';

/** How to reach and authenticate to a server: the part of a kubeconfig a client uses (client-go's rest.Config). */
export interface RestConfig {
  /** The server's base URL (`https://127.0.0.1:6443`). */
  server: string;
  /** PEM of the CA that signs the server's certificate; the system's roots when absent. */
  ca?: string;
  /** The client certificate and key, PEM. */
  cert?: string;
  key?: string;
  /** A bearer token. */
  token?: string;
  insecureSkipTLSVerify?: boolean;
}

type Named<T> = { name?: string } & T;
interface KubeconfigFile {
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
  'current-context'?: string;
}

/**
 * Reads the current context of a kubeconfig (as client-go's clientcmd does for an explicit path): its cluster's
 * `server`, `certificate-authority(-data)` and `insecure-skip-tls-verify`, and its user's
 * `client-certificate(-data)`, `client-key(-data)`, `token` and `tokenFile`. Relative file names are relative to the
 * kubeconfig's directory. Throws an Error naming what is missing.
 */
export function parseKubeconfig(text: string, path = 'kubeconfig'): RestConfig {
  const base = dirname(resolve(path));
  const doc = (yamlLibrary().parse(text) ?? {}) as KubeconfigFile;
  const contextName = doc['current-context'];
  if (!contextName) throw new Error(`${path}: no current-context`);
  const context = doc.contexts?.find((c) => c.name === contextName)?.context;
  if (!context) throw new Error(`${path}: context "${contextName}" not found`);
  const cluster = doc.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) throw new Error(`${path}: cluster "${context.cluster ?? ''}" of context "${contextName}" not found`);
  const user = (context.user ? doc.users?.find((u) => u.name === context.user)?.user : undefined) ?? {};
  const server = cluster.server;
  if (typeof server !== 'string' || server === '') throw new Error(`${path}: cluster "${context.cluster}" has no server`);
  const file = (name: unknown) => readFileSync(isAbsolute(String(name)) ? String(name) : resolve(base, String(name)), 'utf8');
  const material = (entry: Record<string, unknown>, key: string) => {
    const data = entry[`${key}-data`];
    if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
    const name = entry[key];
    return typeof name === 'string' && name !== '' ? file(name) : undefined;
  };
  const config: RestConfig = { server: server.replace(/\/+$/, '') };
  const ca = material(cluster, 'certificate-authority');
  if (ca) config.ca = ca;
  if (cluster['insecure-skip-tls-verify'] === true) config.insecureSkipTLSVerify = true;
  const cert = material(user, 'client-certificate');
  const key = material(user, 'client-key');
  if (cert && key) Object.assign(config, { cert, key });
  if (typeof user.token === 'string' && user.token !== '') config.token = user.token;
  else if (typeof user.tokenFile === 'string' && user.tokenFile !== '') config.token = file(user.tokenFile).trim();
  return config;
}

/** Reads a kubeconfig file (`--kubeconfig`, `--authentication-kubeconfig`, `--authorization-kubeconfig`). */
export function loadKubeconfig(path: string): RestConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to read kubeconfig ${path}: ${(err as Error).message}`);
  }
  return parseKubeconfig(text, path);
}
