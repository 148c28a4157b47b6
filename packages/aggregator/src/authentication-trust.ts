import { X509Certificate } from 'node:crypto';
import type { KubeObject } from '@kapi/apimachinery';
import { coalesced, parseCertificateBundle, type PluginHost } from '@kapi/apiserver';

// kube-apiserver's ClusterAuthenticationTrustController (pkg/controlplane/controller/clusterauthenticationtrust):
// the main server publishes how it authenticates clients and front proxies, for aggregated API servers (their
// delegated authentication reads it; the extension-apiserver-authentication-reader Role lets them).

/** Where the trust is published: kube-system/extension-apiserver-authentication. */
export const AUTHENTICATION_TRUST_NAMESPACE = 'kube-system';
export const AUTHENTICATION_TRUST_NAME = 'extension-apiserver-authentication';

/** How often the ConfigMap is checked even when nothing changed (kube's controller: once a minute). */
export const AUTHENTICATION_TRUST_RESYNC_MS = 60_000;

/** The request-header (front proxy) authentication a server accepts: kube's `--requestheader-*` flags. */
export interface RequestHeaderTrust {
  /** `--requestheader-client-ca-file`: the CA(s) a front proxy's client certificate is verified against, PEM. */
  caPem: string;
  /** `--requestheader-allowed-names`: common names a front proxy may have; empty: any the CA signed. */
  allowedNames: readonly string[];
  /** `--requestheader-username-headers` (`X-Remote-User`). */
  usernameHeaders: readonly string[];
  /** `--requestheader-uid-headers`; none by default. */
  uidHeaders?: readonly string[];
  /** `--requestheader-group-headers` (`X-Remote-Group`). */
  groupHeaders: readonly string[];
  /** `--requestheader-extra-headers-prefix` (`X-Remote-Extra-`). */
  extraHeaderPrefixes: readonly string[];
}

/** What a server publishes (kube's ClusterAuthenticationInfo). */
export interface AuthenticationTrust {
  /** `--client-ca-file`: the CA(s) clients' certificates are verified against, PEM. */
  clientCaPem?: string;
  /** Front-proxy authentication; without it no `requestheader-*` key is published by this server. */
  requestHeader?: RequestHeaderTrust;
}

/** Certificates that ended more than this long ago are dropped from the published bundles (kube's slack). */
const EXPIRED_SLACK_MS = 5 * 60_000;

/** Go's pem.Encode of each certificate: base64 in 64-character lines. */
function encodeCertificates(certs: X509Certificate[]): string {
  return certs
    .map((cert) => `-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`)
    .join('');
}

/** Both bundles' certificates, the existing first, without duplicates or expired ones; '' when none is left. */
function combineBundles(existing: string | undefined, required: string | undefined, now: Date): string {
  const certs: X509Certificate[] = [];
  for (const bundle of [existing, required]) {
    if (!bundle) continue;
    let parsed: X509Certificate[];
    try {
      parsed = parseCertificateBundle(bundle);
    } catch {
      // Unlike kube, which stops until someone repairs it, an unreadable published bundle is replaced.
      continue;
    }
    for (const cert of parsed) {
      if (new Date(cert.validTo).getTime() <= now.getTime() - EXPIRED_SLACK_MS) continue;
      if (!certs.some((c) => c.raw.equals(cert.raw))) certs.push(cert);
    }
  }
  return encodeCertificates(certs);
}

/** A published JSON string list, [] when absent or unreadable. */
function readList(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Existing values first, then required ones not among them (kube's combineUniqueStringSlices), as Go's json.Marshal writes them. */
function combineLists(existing: string | undefined, required: readonly string[] | undefined): string {
  return JSON.stringify([...new Set([...readList(existing), ...(required ?? [])])]);
}

/**
 * The ConfigMap data that publishes `trust` over what `existing` data already publishes (kube's
 * combinedClusterAuthenticationInfo and getConfigMapDataFor): several servers sharing storage each add their CAs,
 * names and headers, and none removes another's; expired certificates are dropped. Keys: `client-ca-file` (PEM),
 * and, when a request-header CA is known, `requestheader-client-ca-file` (PEM) and `requestheader-allowed-names`,
 * `-username-headers`, `-uid-headers`, `-group-headers`, `-extra-headers-prefix` (JSON string arrays, `["X-Remote-User"]`).
 * Other keys of `existing` are dropped, as kube rewrites the data whole.
 */
export function authenticationTrustData(existing: Readonly<Record<string, string>> | undefined, trust: AuthenticationTrust, now = new Date()): Record<string, string> {
  const old = existing ?? {};
  const data: Record<string, string> = {};
  const clientCa = combineBundles(old['client-ca-file'], trust.clientCaPem, now);
  if (clientCa) data['client-ca-file'] = clientCa;
  const requestHeaderCa = combineBundles(old['requestheader-client-ca-file'], trust.requestHeader?.caPem, now);
  if (!requestHeaderCa) return data;
  const rh = trust.requestHeader;
  data['requestheader-username-headers'] = combineLists(old['requestheader-username-headers'], rh?.usernameHeaders);
  data['requestheader-uid-headers'] = combineLists(old['requestheader-uid-headers'], rh?.uidHeaders);
  data['requestheader-group-headers'] = combineLists(old['requestheader-group-headers'], rh?.groupHeaders);
  data['requestheader-extra-headers-prefix'] = combineLists(old['requestheader-extra-headers-prefix'], rh?.extraHeaderPrefixes);
  data['requestheader-client-ca-file'] = requestHeaderCa;
  data['requestheader-allowed-names'] = combineLists(old['requestheader-allowed-names'], rh?.allowedNames);
  return data;
}

const sameData = (a: Readonly<Record<string, string>> | undefined, b: Record<string, string>): boolean => {
  const keys = Object.keys(b);
  return !!a && Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
};

/**
 * Keeps kube-system/extension-apiserver-authentication publishing `trust` while the server runs: created (or
 * completed) at start, before the server is ready, and written again whenever a ConfigMap changes and it no longer
 * publishes `trust` (deleted, edited), and once every `resyncMs` in any case. Call it from a GroupPlugin's `install`
 * (the core group, serving ConfigMaps, must be installed too). Throws at once when a CA in `trust` is no PEM
 * certificate; failures to write later are logged and retried on the next change or resync.
 */
export function publishAuthenticationTrust(host: PluginHost, trust: AuthenticationTrust, options: { resyncMs?: number } = {}): void {
  if (trust.clientCaPem) parseCertificateBundle(trust.clientCaPem);
  if (trust.requestHeader) parseCertificateBundle(trust.requestHeader.caPem);
  const entry = host.registry.lookup('', 'v1', 'configmaps');
  if (!entry) throw new Error('publishing the authentication trust needs the core group (ConfigMaps) installed');
  const ctx = host.systemContext(entry, { namespace: AUTHENTICATION_TRUST_NAMESPACE });

  const dataOf = (obj: KubeObject | undefined) => (obj as { data?: Record<string, string> } | undefined)?.data;
  // kube's syncConfigMap: nothing is written while the ConfigMap publishes `trust` already; otherwise the data is
  // recomputed from the stored object inside the compare-and-swap, or the ConfigMap created where it is missing.
  const sync = async (): Promise<void> => {
    const current = await host.store.find(ctx, AUTHENTICATION_TRUST_NAME);
    if (current && sameData(dataOf(current), authenticationTrustData(dataOf(current), trust))) return;
    const { created } = await host.store.update(
      ctx,
      AUTHENTICATION_TRUST_NAME,
      (stored) => {
        const base = stored ?? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: AUTHENTICATION_TRUST_NAME, namespace: AUTHENTICATION_TRUST_NAMESPACE } };
        return { ...base, data: authenticationTrustData(dataOf(stored), trust) } as KubeObject;
      },
      { allowCreate: true },
    );
    host.log(2, `${created ? 'created' : 'updated'} the authentication info in ${AUTHENTICATION_TRUST_NAMESPACE} configmaps/${AUTHENTICATION_TRUST_NAME}`);
  };

  // One sync at a time; a change during one asks for another after it. A failed sync is logged and left to the next
  // change or resync; none runs once the server stops.
  let stopped = false;
  const trigger = coalesced(async () => {
    if (stopped) return;
    try {
      await sync();
    } catch (error) {
      host.log(1, `${AUTHENTICATION_TRUST_NAMESPACE}/${AUTHENTICATION_TRUST_NAME} failed with: ${(error as Error).message}`);
    }
  }, () => {});

  let timer: NodeJS.Timeout | undefined;
  host.onStart(async () => {
    await trigger();
    timer = setInterval(() => void trigger(), options.resyncMs ?? AUTHENTICATION_TRUST_RESYNC_MS);
    timer.unref();
  });
  // Only its own ConfigMap: a sync reads it and parses the certificates, which every ConfigMap write would pay.
  host.onObjectsChange(entry, () => void trigger(), { namespace: AUTHENTICATION_TRUST_NAMESPACE, name: AUTHENTICATION_TRUST_NAME });
  host.onStop(async () => {
    stopped = true;
    clearInterval(timer);
    // Waits for a sync under way (a new one does nothing now).
    await trigger();
  });
}
