import { isStatusError, newInternalError } from '@kapi/apimachinery';
import { compressUsername } from '../metrics/labels.js';
import type { MetricSet } from '../metrics/definitions.js';
import type { UserInfo } from '../admission/types.js';
import { auditAnnotate, auditAuthenticated, auditImpersonated } from '../audit/context.js';
import { requestAttributes } from './attributes.js';
import { authenticate } from './authenticators.js';
import { forbiddenError } from './forbidden.js';
import { impersonate } from './impersonation.js';
import type { Authenticator, Authorizer, Decision, PeerCertificate } from './types.js';

/** Who a request runs as, and who sent it when that is another user (impersonation). */
export interface RequestUser {
  user: UserInfo;
  /** The authenticated requester, when it impersonates `user`. */
  impersonatedBy?: UserInfo;
}

export interface AccessFilter {
  /**
   * Authenticates, impersonates and authorizes one request, before anything else reads it (kube's
   * WithAuthentication, WithImpersonation and WithAuthorization filters). Resolves with the user the request runs
   * as; throws a 401 StatusError for bad or missing credentials, 400 for impersonation headers without a user, 403
   * Forbidden when the impersonation or the request is not allowed, 500 when the authorizer failed to decide.
   */
  (request: Request, peerCertificate?: PeerCertificate, peerCertificateError?: string): Promise<RequestUser>;
}

type AccessMetrics = Pick<
  MetricSet,
  'authenticationAttempts' | 'authenticationDuration' | 'authenticatedUserRequests' | 'authorizationAttempts' | 'authorizationDuration'
>;

/** Resolves with `call`'s value, observing its duration and result (`resultOf`) into an attempts counter and histogram. */
async function measured<T>(
  attempts: AccessMetrics['authenticationAttempts'] | undefined,
  duration: AccessMetrics['authenticationDuration'] | undefined,
  call: () => Promise<T>,
  resultOf: (value: T | undefined, err: unknown) => string,
): Promise<T> {
  const started = performance.now();
  let value: T | undefined;
  let error: unknown;
  try {
    return (value = await call());
  } catch (err) {
    throw (error = err ?? new Error('failed'));
  } finally {
    const result = resultOf(value, error);
    attempts?.inc({ result });
    duration?.observe({ result }, (performance.now() - started) / 1000);
  }
}

/** kube's authentication results: success, failure (credentials refused: 401), error (the authenticator failed). */
const authenticationResult = (_: unknown, err: unknown) => (err === undefined ? 'success' : isStatusError(err) && err.status.code === 401 ? 'failure' : 'error');
/** kube's authorization results: allowed, denied, no-opinion, error. */
const authorizationResult = (decision: Decision | undefined, err: unknown) =>
  err !== undefined || decision?.evaluationError ? 'error' : decision!.decision === 'allow' ? 'allowed' : decision!.decision === 'deny' ? 'denied' : 'no-opinion';

export function createAccessFilter(options: {
  authenticators: readonly Authenticator[];
  anonymous: boolean;
  authorizer: Authorizer;
  metrics?: AccessMetrics;
}): AccessFilter {
  const metrics = options.metrics;
  return async (request, peerCertificate, peerCertificateError) => {
    const credentials = { headers: request.headers, peerCertificate, peerCertificateError };
    const requester = await measured(
      metrics?.authenticationAttempts,
      metrics?.authenticationDuration,
      () => authenticate(options.authenticators, credentials, { anonymous: options.anonymous }),
      authenticationResult,
    );
    metrics?.authenticatedUserRequests.inc({ username: compressUsername(requester.username) });
    auditAuthenticated(requester);
    const user = await impersonate(requester, request.headers, options.authorizer);
    if (user !== requester) auditImpersonated(user);
    const url = new URL(request.url);
    const attributes = requestAttributes(user, request.method, url.pathname, url.searchParams);
    const decision = await measured(
      metrics?.authorizationAttempts,
      metrics?.authorizationDuration,
      async () => options.authorizer.authorize(attributes),
      authorizationResult,
    );
    // kube's authorization annotations on the audit event.
    auditAnnotate('authorization.k8s.io/decision', decision.decision === 'allow' ? 'allow' : 'forbid');
    if (decision.reason) auditAnnotate('authorization.k8s.io/reason', decision.reason);
    if (decision.decision === 'allow') return user === requester ? { user } : { user, impersonatedBy: requester };
    if (decision.evaluationError) throw newInternalError(decision.evaluationError);
    throw forbiddenError(attributes, decision.reason);
  };
}
