// Delegated authentication and authorization (k8s.io/apiserver's DelegatingAuthenticationOptions and
// DelegatingAuthorizationOptions): what an extension API server behind an aggregating kube-apiserver uses.
export { alwaysAllowPaths } from './always-allow-paths.js';
export {
  AUTHENTICATION_CONFIGMAP,
  fetchAuthenticationConfig,
  parseAuthenticationConfig,
  watchAuthenticationConfig,
  type AuthenticationConfig,
  type AuthenticationConfigSource,
  type RequestHeaderConfig,
} from './authentication-config.js';
export { parseCertificateBundle, subjectOf, verifyClientChain } from './certificates.js';
export { clientCertificateAuthenticator } from './client-certificate.js';
export { loadKubeconfig, parseKubeconfig, type RestConfig } from './kubeconfig.js';
export {
  DEFAULT_ALWAYS_ALLOW_GROUPS,
  DEFAULT_ALWAYS_ALLOW_PATHS,
  delegatingAuthentication,
  delegatingAuthorization,
  type DelegatingAuthentication,
  type DelegatingAuthenticationOptions,
  type DelegatingAuthorizationOptions,
} from './options.js';
export { requestHeaderAuthenticator } from './request-header.js';
export { createRestClient, RestError, type RestClient } from './rest-client.js';
export {
  DEFAULT_ALLOW_CACHE_TTL_MS,
  DEFAULT_DENY_CACHE_TTL_MS,
  subjectAccessReviewAuthorizer,
  subjectAccessReviewSpec,
  type SubjectAccessReviewOptions,
} from './subject-access-review.js';
export { DEFAULT_TOKEN_REVIEW_CACHE_TTL_MS, tokenReviewAuthenticator, type TokenReviewOptions } from './token-review.js';
