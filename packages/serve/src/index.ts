// Everything `@kapi/serve/certificates` exports (making and keeping the generated certificates), and the server.
export * from './certificates-entry.js';
export { createClientCertificate } from './certificates.js';
export { secureDataDir } from './data-dir.js';
export { KUBECONFIG_NAMES, renderKubeconfig, writeKubeconfig, type AdminKubeconfig } from './kubeconfig.js';
export { MAX_HEADER_BYTES, TLS12_CIPHERS } from './limits.js';
export { closeOnSignals, startServer, type FetchEnv, type ListenPort, type RunningServer, type ServedApi, type StartServerOptions } from './serve.js';
export { serveApiServer, type ServeApiServerOptions, type ServedApiServer, type ServingSecurity } from './serve-api-server.js';
export { generateServingSecurity, loadServingCertificate, servingSecurityProblem, type ServingCertificate } from './tls.js';
