import { join } from 'node:path';
import { secureDataDir } from './data-dir.js';
import { loadYaml, writeKubeconfig } from './kubeconfig.js';
import { closeOnSignals, startServer, type ListenPort, type RunningServer, type ServedApi, type StartServerOptions } from './serve.js';
import type { CertificateMaker } from './certificates.js';
import { ensureClientCertificates, ensureSelfSignedCertificates, loadClientCa, loadServingCertificate, withKubernetesNames, type ServingCertificate } from './tls.js';

/** What the secure port was set up with: handed to an ApiServer factory, and returned. */
export interface ServingSecurity {
  /** The serving certificate and key (PEM), and the CA that signed it when Kapi generated it. */
  tls?: ServingCertificate;
  /** The client CA (PEM) client certificates are verified against: give it to the ApiServer (delegated authentication). */
  clientCa?: string;
  /** The admin's client certificate (user kapi-admin, group system:masters), when Kapi generated the client CA. */
  adminCertificate?: { cert: string; key: string };
}

export interface ServeApiServerOptions extends Pick<StartServerOptions, 'name' | 'shutdownTimeoutMs' | 'shutdownDelayMs' | 'shutdownSendRetryAfter'> {
  /**
   * The ApiServer to serve, or a function that makes it once the certificates are known (an ApiServer whose
   * authenticators or published delegation config need the client CA).
   */
  apiServer: ServedApi | ((security: ServingSecurity) => ServedApi | Promise<ServedApi>);
  /** Where generated certificates, keys and the admin kubeconfig are kept; made private (0700, files 0600). */
  dataDir: string;
  /** `--bind-address`. Default `127.0.0.1`. */
  bindAddress?: string;
  /** HTTPS port; 0 for none, 'ephemeral' for any free port. Default 6443. */
  securePort?: ListenPort;
  /** Plain-HTTP port, for local development only. Default 0 (off). */
  insecurePort?: ListenPort;
  /** `--tls-cert-file` and `--tls-private-key-file`. Without them a CA and a serving certificate are generated in `dataDir`. */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /**
   * The CA that signed `tlsCertFile`, written into the admin kubeconfig for clients to verify the server with. A
   * self-signed `tlsCertFile` is its own CA; without either, the kubeconfig names none (clients use system roots).
   */
  tlsCaFile?: string;
  /** Extra DNS names the generated serving certificate covers (besides localhost, the loopback and bind addresses, the host name and kube's kubernetes.default.svc names). */
  servingNames?: readonly string[];
  /**
   * Certificates already in memory (`generateServingSecurity()`'s, or your own), used as given: nothing is generated,
   * read or written but the kubeconfig, and the certificate options above are ignored. Needs `tls`.
   */
  security?: ServingSecurity;
  /** `--client-ca-file`. Without it a client CA and the admin's client certificate are generated in `dataDir`. */
  clientCaFile?: string;
  /**
   * 'verify' (default): TLS verifies client certificates against the client CA and hands the verified subject to the
   * ApiServer. 'delegate': client certificates are asked for but not verified in TLS, and no client CA is made; the
   * ApiServer's authenticators verify the presented chain against their own CAs (an extension server behind an
   * aggregator, whose CAs the main server publishes and may rotate).
   */
  clientCertificates?: 'verify' | 'delegate';
  /** Where to write the admin kubeconfig; false for none. Default `<dataDir>/admin.kubeconfig`. */
  kubeconfig?: string | false;
  /** Shut down gracefully on SIGINT/SIGTERM and exit the process (as kube-apiserver does). Default false. */
  handleSignals?: boolean;
  /** Where the start-up report goes (generated files, listeners, kubeconfig). Default: nowhere. */
  log?: (message: string) => void;
  /**
   * What makes the certificates generated in `dataDir`: `prepareCertificates()`'s, started before the program loaded
   * the server, so that they are ready (or nearly) when asked for. Default: made in this thread when needed.
   */
  certificates?: CertificateMaker;
}

export interface ServedApiServer extends RunningServer {
  security: ServingSecurity;
  /** The admin kubeconfig written, if any: any Kubernetes client can use it. */
  kubeconfig?: string;
}

/**
 * Serves an ApiServer as kube-apiserver does: over HTTPS with certificates it is given or generates (a CA, a serving
 * certificate, a client CA and the admin's client certificate, all kept in `dataDir` and reused), client
 * certificates verified against the client CA and handed to the ApiServer's authenticators, an admin kubeconfig,
 * and graceful shutdown. Bearer tokens and every other credential are the ApiServer's authenticators' business.
 */
export async function serveApiServer(options: ServeApiServerOptions): Promise<ServedApiServer> {
  const log = options.log ?? (() => {});
  const securePort = options.securePort ?? 6443;
  const bindAddress = options.bindAddress ?? '127.0.0.1';
  // Keys, certificates and the admin kubeconfig live there: nobody else may read them.
  secureDataDir(options.dataDir);
  if (options.security && !options.security.tls) throw new Error('serveApiServer: security needs tls (a serving certificate and key)');
  const kubeconfig = options.kubeconfig === false ? undefined : (options.kubeconfig ?? join(options.dataDir, 'admin.kubeconfig'));
  // A first start may wait here for certificates still being made in a worker thread: if so, the YAML library the
  // kubeconfig is written with loads meanwhile. Only then: loading it takes this thread some 25 ms, which a start whose
  // certificates are ready would spend before serving.
  if (kubeconfig && !options.security && securePort !== 0) {
    setImmediate(() => {
      if (options.certificates?.busy?.()) loadYaml();
    });
  }
  const security = securePort === 0 ? {} : (options.security ?? (await secureMaterial(options, bindAddress, log)));
  // Certificates are written world-readable (they are public); the data dir keeps every file private all the same.
  secureDataDir(options.dataDir);
  const apiServer = typeof options.apiServer === 'function' ? await options.apiServer(security) : options.apiServer;
  const running = await startServer({
    apiServer,
    bindAddress,
    securePort,
    insecurePort: options.insecurePort,
    tls: security.tls && { ...security.tls, clientCa: security.clientCa, requestClientCertificates: options.clientCertificates === 'delegate' },
    log,
    name: options.name,
    shutdownTimeoutMs: options.shutdownTimeoutMs,
    shutdownDelayMs: options.shutdownDelayMs,
    shutdownSendRetryAfter: options.shutdownSendRetryAfter,
  });
  if (options.handleSignals) closeOnSignals(running, log);

  if (kubeconfig) {
    const https = running.urls.https !== undefined;
    await writeKubeconfig(kubeconfig, {
      server: running.url,
      caCertificate: https ? security.tls?.ca : undefined,
      clientCertificate: https ? security.adminCertificate : undefined,
    });
    log(`admin kubeconfig: ${kubeconfig} (export KUBECONFIG=${kubeconfig})`);
  }
  return { ...running, security, kubeconfig };
}

/**
 * The serving certificate and the client CA: loaded from the files given, else generated in (or reused from) the data
 * dir. The two are made (and written) side by side.
 */
async function secureMaterial(options: ServeApiServerOptions, bindAddress: string, log: (message: string) => void): Promise<ServingSecurity> {
  if (!options.tlsCertFile !== !options.tlsPrivateKeyFile) throw new Error('a serving certificate needs both its certificate file and its private key file');
  const [tls, client] = await Promise.all([servingMaterial(options, bindAddress, log), clientMaterial(options)]);
  if (client && 'created' in client) {
    if (client.created.ca) log(`generated client CA ${client.files.ca}`);
    if (client.created.cert) log(`generated admin client certificate ${client.files.cert} (key ${client.files.key})`);
    return { tls, clientCa: client.ca, adminCertificate: client.admin };
  }
  return client ? { tls, clientCa: client.ca } : { tls };
}

async function servingMaterial(options: ServeApiServerOptions, bindAddress: string, log: (message: string) => void): Promise<ServingCertificate> {
  if (options.tlsCertFile && options.tlsPrivateKeyFile) {
    const tls = await loadServingCertificate(options.tlsCertFile, options.tlsPrivateKeyFile);
    if (options.tlsCaFile) return { ...tls, ca: await loadClientCa(options.tlsCaFile, 'tlsCaFile') };
    if (!tls.ca) log(`the serving certificate ${options.tlsCertFile} is not self-signed and carries no chain to a root: the admin kubeconfig names no CA (clients use their system roots; tlsCaFile names one)`);
    return tls;
  }
  const generated = await ensureSelfSignedCertificates({
    dataDir: options.dataDir,
    bindAddress,
    names: withKubernetesNames(options.servingNames),
    certificates: options.certificates,
  });
  if (generated.created.ca) log(`generated self-signed CA ${generated.files.ca}`);
  if (generated.created.cert) log(`generated serving certificate ${generated.files.cert} (key ${generated.files.key})`);
  return generated;
}

/** The client CA: none when client certificates are delegated, the file given, or generated with the admin's certificate. */
async function clientMaterial(options: ServeApiServerOptions) {
  if (options.clientCertificates === 'delegate') return undefined;
  if (options.clientCaFile) return { ca: await loadClientCa(options.clientCaFile) };
  return ensureClientCertificates({ dataDir: options.dataDir, certificates: options.certificates });
}
