import { createHash } from 'node:crypto';
import { newUnauthorized } from '@kapi/apimachinery';
import type { UserInfo } from '../../admission/types.js';
import type { Authenticator } from '../types.js';
import { bearerToken } from '../authenticators.js';
import type { RestClient } from './rest-client.js';
import { TtlCache } from './ttl-cache.js';

/** kube's `--authentication-token-webhook-cache-ttl` default for delegated authentication. */
export const DEFAULT_TOKEN_REVIEW_CACHE_TTL_MS = 10_000;

export interface TokenReviewOptions {
  /** The main server, with the credentials of `--authentication-kubeconfig`. */
  client: RestClient;
  /** How long an answer (authenticated or not) is reused; default 10 s. Errors are not cached, as in kube. */
  cacheTtlMs?: number;
  /** `spec.audiences` of each review (kube's `--api-audiences`); default none (the main server's own). */
  audiences?: string[];
  /** Tests' clock. */
  now?: () => number;
}

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

type Answer = { user: UserInfo } | { error: string };

/**
 * kube's delegated bearer-token authentication (webhook token authenticator over the TokenReview API): each
 * `Authorization: Bearer` token is sent to the main server as an authentication.k8s.io/v1 TokenReview, and the
 * answer kept for `cacheTtlMs` (keyed by a hash of the token, never the token itself). A token the main server does
 * not authenticate is rejected (401, with its error when it gave one); a main server that cannot be asked rejects
 * it too (401), so nothing is let through on a failure.
 */
export function tokenReviewAuthenticator(options: TokenReviewOptions): Authenticator {
  const ttl = options.cacheTtlMs ?? DEFAULT_TOKEN_REVIEW_CACHE_TTL_MS;
  const cache = new TtlCache<Answer>(4096, options.now);
  const audiences = options.audiences ?? [];
  const review = async (token: string): Promise<Answer> => {
    const spec: Record<string, unknown> = { token };
    if (audiences.length) spec.audiences = audiences;
    const answer = (await options.client.post('/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec,
    })) as { status?: TokenReviewStatus };
    const status = answer.status ?? {};
    if (!status.authenticated || !status.user?.username) return { error: status.error || 'invalid bearer token' };
    // kube checks the review's audiences intersect the ones asked for.
    if (audiences.length && !(status.audiences ?? []).some((a) => audiences.includes(a))) return { error: 'token audiences is invalid for the target audiences' };
    const { username, uid, groups, extra } = status.user;
    const user: UserInfo = { username, groups: [...(groups ?? [])] };
    if (uid) user.uid = uid;
    if (extra && Object.keys(extra).length) user.extra = structuredClone(extra);
    return { user };
  };
  return async ({ headers }) => {
    const token = bearerToken(headers);
    if (token === undefined) return undefined;
    const key = createHash('sha256').update(audiences.join('\0')).update('\0').update(token).digest('base64');
    let answer = cache.get(key);
    if (!answer) {
      try {
        answer = await review(token);
      } catch {
        throw newUnauthorized('Unauthorized');
      }
      cache.set(key, answer, ttl);
    }
    if ('error' in answer) throw newUnauthorized(answer.error);
    return structuredClone(answer.user);
  };
}
