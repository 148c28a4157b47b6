import { isStatusError, newInternalError } from '@kapi/apimachinery';
import { isPromise } from '../maybe.js';
import { compressUsername } from '../metrics/labels.js';
import type { MetricSet } from '../metrics/definitions.js';
import type { UserInfo } from '../admission/types.js';
import { auditAnnotate, auditAuthenticated, auditImpersonated } from '../audit/context.js';
import { requestAttributes } from './attributes.js';
import { authenticate } from './authenticators.js';
import { forbiddenError } from './forbidden.js';
import { impersonate } from './impersonation.js';
import type { X509Certificate } from 'node:crypto';
import type { RequestInfo } from '../endpoints/request-info.js';
import type { AuthorizationAttributes, Authenticator, Authorizer, Decision, PeerCertificate } from './types.js';

/** Who a request runs as, and who sent it when that is another user (impersonation). */
export interface RequestUser {
  user: UserInfo;
  /** The authenticated requester, when it impersonates `user`. */
  impersonatedBy?: UserInfo;
  /** What the request was authorized as (kube's RequestInfo with the user): API Priority and Fairness classifies by it. */
  attributes: AuthorizationAttributes;
}

export interface AccessFilter {
  /**
   * Authenticates, impersonates and authorizes one request, before anything else reads it (kube's
   * WithAuthentication, WithImpersonation and WithAuthorization filters). Resolves with the user the request runs
   * as; throws a 401 StatusError for bad or missing credentials, 400 for impersonation headers without a user, 403
   * Forbidden when the impersonation or the request is not allowed, 500 when the authorizer failed to decide.
   */
  (
    request: Request,
    peerCertificate?: PeerCertificate,
    peerCertificateError?: string,
    peerCertificateChain?: readonly X509Certificate[],
    known?: KnownRequestFacts,
  ): Promise<RequestUser>;
}

/** What the caller already has of a request, so the filter does not work it out again. */
export interface KnownRequestFacts {
  /** The request's URL, parsed. */
  url?: URL;
  /** The request's RequestInfo, parsed from the same URL (undefined for a non-resource path). */
  info?: RequestInfo;
  /** The headers as the transport received them, names and values alternating (FetchEnv.rawHeaders). */
  rawHeaders?: readonly string[];
}

type AccessMetrics = Pick<MetricSet, 'authenticationAttempts' | 'authenticatedUserRequests' | 'authorizationAttempts'>;

/** kube's authentication results: failure (credentials refused: 401) or error (the authenticator failed). */
const authenticationFailure = (err: unknown) => (isStatusError(err) && err.status.code === 401 ? 'failure' : 'error');
/** kube's authorization results: allowed, denied, no-opinion, error. */
const authorizationResult = (decision: Decision) =>
  decision.evaluationError ? 'error' : decision.decision === 'allow' ? 'allowed' : decision.decision === 'deny' ? 'denied' : 'no-opinion';

export function createAccessFilter(options: {
  authenticators: readonly Authenticator[];
  anonymous: boolean;
  authorizer: Authorizer;
  metrics?: AccessMetrics;
}): AccessFilter {
  const metrics = options.metrics;
  return async (request, peerCertificate, peerCertificateError, peerCertificateChain, known) => {
    const credentials = { headers: request.headers, peerCertificate, peerCertificateError, peerCertificateChain };
    let requester: UserInfo;
    try {
      requester = await authenticate(options.authenticators, credentials, { anonymous: options.anonymous });
    } catch (err) {
      metrics?.authenticationAttempts.add(authenticationFailure(err));
      throw err;
    }
    metrics?.authenticationAttempts.add('success');
    metrics?.authenticatedUserRequests.add(compressUsername(requester.username));
    auditAuthenticated(requester);
    const user = await impersonate(requester, request.headers, options.authorizer, known?.rawHeaders);
    if (user !== requester) auditImpersonated(user);
    const url = known?.url ?? new URL(request.url);
    const attributes = requestAttributes(user, request.method, url.pathname, url.searchParams, known?.info);
    let decision: Decision;
    try {
      const answer = options.authorizer.authorize(attributes);
      decision = isPromise(answer) ? await answer : answer;
    } catch (err) {
      metrics?.authorizationAttempts.add('error');
      throw err;
    }
    metrics?.authorizationAttempts.add(authorizationResult(decision));
    // kube's authorization annotations on the audit event.
    auditAnnotate('authorization.k8s.io/decision', decision.decision === 'allow' ? 'allow' : 'forbid');
    if (decision.reason) auditAnnotate('authorization.k8s.io/reason', decision.reason);
    if (decision.decision === 'allow') return user === requester ? { user, attributes } : { user, impersonatedBy: requester, attributes };
    if (decision.evaluationError) throw newInternalError(decision.evaluationError);
    throw forbiddenError(attributes, decision.reason);
  };
}
