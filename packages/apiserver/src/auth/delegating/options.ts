import type { Authenticator, Authorizer } from '../types.js';
import { privilegedGroups } from '../always-allow.js';
import { alwaysAllowPaths } from './always-allow-paths.js';
import { watchAuthenticationConfig, type AuthenticationConfigSource } from './authentication-config.js';
import { clientCertificateAuthenticator } from './client-certificate.js';
import { requestHeaderAuthenticator } from './request-header.js';
import type { RestClient } from './rest-client.js';
import { subjectAccessReviewAuthorizer } from './subject-access-review.js';
import { tokenReviewAuthenticator } from './token-review.js';

/** kube's DelegatingAuthorizationOptions defaults: health is never asked about, system:masters may do everything. */
export const DEFAULT_ALWAYS_ALLOW_PATHS = ['/healthz', '/readyz', '/livez'] as const;
export const DEFAULT_ALWAYS_ALLOW_GROUPS = ['system:masters'] as const;

export interface DelegatingAuthenticationOptions {
  /** The main server, as `--authentication-kubeconfig` reaches it. */
  client: RestClient;
  /** TokenReview answers' cache TTL (`--authentication-token-webhook-cache-ttl`); default 10 s. */
  cacheTtlMs?: number;
  /** `spec.audiences` of TokenReviews; default none. */
  audiences?: string[];
  /** How often the ConfigMap is read again; default 1 minute. */
  refreshMs?: number;
  /** Hears failed refreshes (the last good configuration stays in use). */
  onError?: (err: Error) => void;
}

export interface DelegatingAuthentication {
  /** In kube's order: front proxy (request headers), client certificates, bearer tokens (TokenReview). */
  authenticators: Authenticator[];
  /** The ConfigMap as last read. Stop it with the server. */
  config: AuthenticationConfigSource;
}

/**
 * kube's DelegatingAuthenticationOptions: reads kube-system/extension-apiserver-authentication from the main server
 * (rejects when it cannot, so the server does not start without it) and builds the authenticators it describes,
 * which follow the ConfigMap as it is refreshed. Anonymous access stays the server's `anonymousAuth` (kube's
 * delegating default: on; requests without credentials are then authorized as system:anonymous by the main server).
 */
export async function delegatingAuthentication(options: DelegatingAuthenticationOptions): Promise<DelegatingAuthentication> {
  const config = await watchAuthenticationConfig(options.client, { refreshMs: options.refreshMs, onError: options.onError });
  return {
    config,
    authenticators: [
      requestHeaderAuthenticator(() => config.current().requestHeader),
      clientCertificateAuthenticator(() => config.current().clientCa),
      tokenReviewAuthenticator({ client: options.client, cacheTtlMs: options.cacheTtlMs, audiences: options.audiences }),
    ],
  };
}

export interface DelegatingAuthorizationOptions {
  /** The main server, as `--authorization-kubeconfig` reaches it. */
  client: RestClient;
  allowCacheTtlMs?: number;
  denyCacheTtlMs?: number;
  /** `--authorization-always-allow-paths`; default /healthz, /readyz, /livez. */
  alwaysAllowPaths?: readonly string[];
  /** Groups allowed everything without asking; default system:masters. */
  alwaysAllowGroups?: readonly string[];
}

/**
 * kube's DelegatingAuthorizationOptions: the always-allowed groups, then the always-allowed paths, then a
 * SubjectAccessReview to the main server for everything else. Pass the list as the server's `authorizers`.
 */
export function delegatingAuthorization(options: DelegatingAuthorizationOptions): Authorizer[] {
  const groups = options.alwaysAllowGroups ?? DEFAULT_ALWAYS_ALLOW_GROUPS;
  const paths = options.alwaysAllowPaths ?? DEFAULT_ALWAYS_ALLOW_PATHS;
  const authorizers: Authorizer[] = [];
  if (groups.length) authorizers.push(privilegedGroups(...groups));
  if (paths.length) authorizers.push(alwaysAllowPaths(paths));
  authorizers.push(subjectAccessReviewAuthorizer(options));
  return authorizers;
}
