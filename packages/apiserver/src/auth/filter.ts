import { newInternalError } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import { requestAttributes } from './attributes.js';
import { authenticate } from './authenticators.js';
import { forbiddenError } from './forbidden.js';
import type { Authenticator, Authorizer, PeerCertificate } from './types.js';

export interface AccessFilter {
  /**
   * Authenticates then authorizes one request, before anything else reads it (kube's WithAuthentication and
   * WithAuthorization filters). Returns the user the request runs as; throws a 401 StatusError for bad or missing
   * credentials, 403 Forbidden when the authorizer does not allow the request, 500 when it failed to decide.
   */
  (request: Request, peerCertificate?: PeerCertificate): Promise<UserInfo>;
}

export function createAccessFilter(options: { authenticators: readonly Authenticator[]; anonymous: boolean; authorizer: Authorizer }): AccessFilter {
  return async (request, peerCertificate) => {
    const user = await authenticate(options.authenticators, { headers: request.headers, peerCertificate }, { anonymous: options.anonymous });
    const url = new URL(request.url);
    const attributes = requestAttributes(user, request.method, url.pathname, url.searchParams);
    const decision = await options.authorizer.authorize(attributes);
    if (decision.decision === 'allow') return user;
    if (decision.evaluationError) throw newInternalError(decision.evaluationError);
    throw forbiddenError(attributes, decision.reason);
  };
}
