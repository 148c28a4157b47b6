import type { RequestHeaderTrust } from '@kapi/aggregator';
import type { ServerConfig } from './flags.js';
import { ensureFrontProxyCertificates, FRONT_PROXY_CLIENT, loadClientCa, loadProxyClientCertificate, type CertificateMaker } from '@kapi/serve/certificates';

/**
 * The front proxy the server is for aggregated API servers (kube-aggregator's proxy client): the client certificate
 * it dials them with (`--proxy-client-cert-file`, `--proxy-client-key-file`, or generated), and the request-header
 * trust that certificate is meant to satisfy.
 */
export interface FrontProxy {
  /** The proxy's client certificate, PEM. */
  clientCert: string;
  /** Its private key, PEM. */
  clientKey: string;
  /**
   * The request-header trust; undefined when a proxy certificate is given without `--requestheader-client-ca-file`
   * (nothing says which CA signed it: kube publishes no request-header keys then either).
   */
  requestHeader?: RequestHeaderTrust;
}

/** What the server tells aggregated API servers to trust, and what its proxy presents to them. */
export interface AggregationTrust {
  /** The client CA the secure port verifies client certificates against (PEM); undefined without a secure port. */
  clientCaPem?: string;
  frontProxy: FrontProxy;
  /**
   * The CA bundle published to every namespace as kube-root-ca.crt (PEM), as kube-controller-manager publishes its
   * --root-ca-file: that file when given, else the CA that signed the serving certificate (generated, or chained).
   */
  servingCaPem?: string;
}

type FrontProxyFlags = Pick<
  ServerConfig,
  | 'dataDir'
  | 'proxyClientCertFile'
  | 'proxyClientKeyFile'
  | 'requestheaderClientCaFile'
  | 'requestheaderAllowedNames'
  | 'requestheaderUsernameHeaders'
  | 'requestheaderGroupHeaders'
  | 'requestheaderExtraHeadersPrefix'
>;

/**
 * Loads the front-proxy material the flags name, or generates it in `--data-dir` when no `--proxy-client-cert-file`
 * is given (front-proxy-ca.crt/.key and front-proxy-client.crt/.key, reused on later starts); then
 * `--requestheader-client-ca-file` defaults to the generated CA and `--requestheader-allowed-names` to
 * [front-proxy-client]. `report` hears what was generated; `certificates` makes them (prepareCertificates'). Throws when a file cannot be read.
 */
export async function loadFrontProxy(config: FrontProxyFlags, report: (message: string) => void = () => {}, certificates?: CertificateMaker): Promise<FrontProxy> {
  const headers = {
    usernameHeaders: config.requestheaderUsernameHeaders,
    groupHeaders: config.requestheaderGroupHeaders,
    extraHeaderPrefixes: config.requestheaderExtraHeadersPrefix,
  };
  const givenCa = config.requestheaderClientCaFile ? await loadClientCa(config.requestheaderClientCaFile, '--requestheader-client-ca-file') : undefined;
  if (config.proxyClientCertFile && config.proxyClientKeyFile) {
    const client = await loadProxyClientCertificate(config.proxyClientCertFile, config.proxyClientKeyFile);
    const requestHeader = givenCa ? { caPem: givenCa, allowedNames: config.requestheaderAllowedNames ?? [], ...headers } : undefined;
    return { clientCert: client.cert, clientKey: client.key, requestHeader };
  }
  const generated = await ensureFrontProxyCertificates({ dataDir: config.dataDir, certificates });
  if (generated.created.ca) report(`generated front-proxy CA ${generated.files.ca}`);
  if (generated.created.cert) report(`generated front-proxy client certificate ${generated.files.cert} (key ${generated.files.key})`);
  return {
    clientCert: generated.client.cert,
    clientKey: generated.client.key,
    requestHeader: {
      caPem: givenCa ?? generated.ca,
      allowedNames: config.requestheaderAllowedNames ?? [FRONT_PROXY_CLIENT],
      ...headers,
    },
  };
}
