// Public API of @kapi/aggregator.
export { aggregatorPlugin } from './plugin.js';
export type { AggregatorOptions } from './aggregator.js';
export type { ProxyClientCertificate } from './transport.js';
export { validateAPIService, validateAPIServiceStatus } from './apiservice/validation.js';
export { AUTOMANAGED_LABEL } from './autoregister/controller.js';
export type { APIService, APIServiceSpec, APIServiceCondition } from './apiservice/types.js';
export {
  authenticationTrustData,
  publishAuthenticationTrust,
  AUTHENTICATION_TRUST_NAME,
  AUTHENTICATION_TRUST_NAMESPACE,
  type AuthenticationTrust,
  type RequestHeaderTrust,
} from './authentication-trust.js';
