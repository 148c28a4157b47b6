export { localCertificates, type CertificateMaker, type CertificateNames } from './certificates.js';
export { secureDataDir } from './data-dir.js';
export { prepareCertificates, startCertificateWorker, type CertificateSets, type CertificateWorker, type PreparedCertificates } from './prepared-certificates.js';
export { KUBECONFIG_NAMES, renderKubeconfig, writeKubeconfig, type AdminKubeconfig } from './kubeconfig.js';
export { MAX_HEADER_BYTES, TLS12_CIPHERS } from './limits.js';
export { closeOnSignals, startServer, type FetchEnv, type ListenPort, type RunningServer, type ServedApi, type StartServerOptions } from './serve.js';
export { serveApiServer, type ServeApiServerOptions, type ServedApiServer, type ServingSecurity } from './serve-api-server.js';
export {
  ADMIN_SUBJECT,
  CLIENT_CA_NAME,
  CLIENT_CERT_FILES,
  FRONT_PROXY_CA_NAME,
  FRONT_PROXY_CLIENT,
  FRONT_PROXY_FILES,
  KUBERNETES_NAMES,
  TLS_FILES,
  ensureClientCertificates,
  ensureFrontProxyCertificates,
  ensureSelfSignedCertificates,
  generateServingSecurity,
  loadClientCa,
  loadProxyClientCertificate,
  loadServingCertificate,
  servingNames,
  servingSecurityProblem,
  type ClientCertificates,
  type FrontProxyCertificates,
  type GeneratedCertificates,
  type Pair,
  type ServingCertificate,
} from './tls.js';
export { createClientCertificate } from './certificates.js';
