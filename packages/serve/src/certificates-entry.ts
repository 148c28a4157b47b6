// `@kapi/serve/certificates`: making and keeping the generated certificates, without the server (node:crypto, and the
// x509 library when a certificate is made), so that a program can start the certificate worker before it loads the rest.
export { localCertificates, type CertificateMaker, type CertificateNames, type Pair } from './certificates.js';
export { prepareCertificates, startCertificateWorker, type CertificateSets, type CertificateWorker, type PreparedCertificates } from './prepared-certificates.js';
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
  loadClientCa,
  loadProxyClientCertificate,
  servingNames,
  type ClientCertificates,
  type FrontProxyCertificates,
  type GeneratedCertificates,
} from './tls.js';
