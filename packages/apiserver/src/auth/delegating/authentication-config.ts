import type { X509Certificate } from 'node:crypto';
import { parseCertificateBundle } from './certificates.js';
import type { RestClient } from './rest-client.js';
import { RestError } from './rest-client.js';

/** Where kube-apiserver publishes how extension servers should authenticate requests. */
export const AUTHENTICATION_CONFIGMAP = { namespace: 'kube-system', name: 'extension-apiserver-authentication' } as const;

/** The front proxy's settings (kube's `--requestheader-*` flags as the ConfigMap carries them). */
export interface RequestHeaderConfig {
  /** `requestheader-client-ca-file`: the CA the front proxy's client certificate must chain to. */
  ca: X509Certificate[];
  /** `requestheader-allowed-names`: CNs allowed to act as front proxy; empty allows any certificate of the CA. */
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

/** What kube-system/extension-apiserver-authentication says, parsed. */
export interface AuthenticationConfig {
  /** `client-ca-file`: the CA of client certificates; absent when the main server verifies none. */
  clientCa?: X509Certificate[];
  /** The front proxy; absent when the main server has no `--requestheader-client-ca-file`. */
  requestHeader?: RequestHeaderConfig;
}

/** The ConfigMap's list values are JSON arrays of strings (kube serializes them so); an empty value is none. */
function stringList(data: Record<string, string>, key: string): string[] {
  const text = data[key];
  if (text === undefined || text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`configmap ${AUTHENTICATION_CONFIGMAP.namespace}/${AUTHENTICATION_CONFIGMAP.name}: ${key}: ${(err as Error).message}`);
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new Error(`configmap ${AUTHENTICATION_CONFIGMAP.namespace}/${AUTHENTICATION_CONFIGMAP.name}: ${key} is not a JSON array of strings`);
  }
  return value as string[];
}

/** Parses the ConfigMap's data as kube's DelegatingAuthenticationOptions reads it. Throws on malformed values. */
export function parseAuthenticationConfig(data: Record<string, string>): AuthenticationConfig {
  const config: AuthenticationConfig = {};
  const clientCa = data['client-ca-file'];
  if (clientCa && clientCa.trim()) config.clientCa = parseCertificateBundle(clientCa);
  const requestHeaderCa = data['requestheader-client-ca-file'];
  if (requestHeaderCa && requestHeaderCa.trim()) {
    config.requestHeader = {
      ca: parseCertificateBundle(requestHeaderCa),
      allowedNames: stringList(data, 'requestheader-allowed-names'),
      usernameHeaders: stringList(data, 'requestheader-username-headers'),
      uidHeaders: stringList(data, 'requestheader-uid-headers'),
      groupHeaders: stringList(data, 'requestheader-group-headers'),
      extraHeaderPrefixes: stringList(data, 'requestheader-extra-headers-prefix'),
    };
  }
  return config;
}

/** Reads and parses the ConfigMap from the main server. A missing or unreadable ConfigMap is an error saying so. */
export async function fetchAuthenticationConfig(client: RestClient): Promise<AuthenticationConfig> {
  const { namespace, name } = AUTHENTICATION_CONFIGMAP;
  let configMap: { data?: Record<string, string> };
  try {
    configMap = (await client.get(`/api/v1/namespaces/${namespace}/configmaps/${name}`)) as typeof configMap;
  } catch (err) {
    if (err instanceof RestError && err.code === 404) {
      throw new Error(`configmap ${namespace}/${name} not found: the main server publishes it (is this an aggregating kube-apiserver?)`);
    }
    if (err instanceof RestError && err.code === 403) {
      throw new Error(
        `unable to get configmap/${name} in ${namespace}: ${err.message}. Usually fixed by 'kubectl create rolebinding -n ${namespace} ROLEBINDING_NAME --role=extension-apiserver-authentication-reader --serviceaccount=YOUR_NS:YOUR_SA'`,
      );
    }
    throw new Error(`unable to get configmap/${name} in ${namespace}: ${(err as Error).message}`);
  }
  return parseAuthenticationConfig(configMap.data ?? {});
}

/** The authentication configuration as last read, kept fresh while the server runs. */
export interface AuthenticationConfigSource {
  current(): AuthenticationConfig;
  /** Stops refreshing. */
  stop(): void;
}

/**
 * Reads the ConfigMap once (throws when that fails, so the server does not start without it, as kube fails without
 * `--authentication-tolerate-lookup-failure`), then every `refreshMs` (default 1 minute) in the background, keeping
 * the last good configuration when a refresh fails (`onError` hears why). CA rotations reach requests within one
 * interval, as kube's dynamic CA providers do.
 */
export async function watchAuthenticationConfig(
  client: RestClient,
  options: { refreshMs?: number; onError?: (err: Error) => void } = {},
): Promise<AuthenticationConfigSource> {
  let config = await fetchAuthenticationConfig(client);
  const timer = setInterval(() => {
    fetchAuthenticationConfig(client).then(
      (fresh) => (config = fresh),
      (err: Error) => options.onError?.(err),
    );
  }, options.refreshMs ?? 60_000);
  timer.unref();
  return { current: () => config, stop: () => clearInterval(timer) };
}
