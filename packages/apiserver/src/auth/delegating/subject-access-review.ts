import type { UserInfo } from '../../admission/types.js';
import type { AuthorizationAttributes, Authorizer, Decision, SubjectRules } from '../types.js';
import type { RestClient } from './rest-client.js';
import { TtlCache } from './ttl-cache.js';

/** kube's delegated authorization cache defaults (`--authorization-webhook-cache-authorized-ttl` / `-unauthorized-ttl`). */
export const DEFAULT_ALLOW_CACHE_TTL_MS = 10_000;
export const DEFAULT_DENY_CACHE_TTL_MS = 10_000;

export interface SubjectAccessReviewOptions {
  /** The main server, with the credentials of `--authorization-kubeconfig`. */
  client: RestClient;
  /** How long an allow is reused; default 10 s. */
  allowCacheTtlMs?: number;
  /** How long a deny or no-opinion is reused; default 10 s. Failures are never cached. */
  denyCacheTtlMs?: number;
  /** Tests' clock. */
  now?: () => number;
}

/** The authorization.k8s.io/v1 SubjectAccessReview spec of a request's attributes, as kube's webhook authorizer sends it. */
export function subjectAccessReviewSpec(attributes: AuthorizationAttributes): Record<string, unknown> {
  const { user } = attributes;
  const spec: Record<string, unknown> = { user: user.username, groups: [...user.groups] };
  if (user.uid) spec.uid = user.uid;
  if (user.extra && Object.keys(user.extra).length) spec.extra = user.extra;
  if (attributes.resourceRequest) {
    spec.resourceAttributes = {
      namespace: attributes.namespace,
      verb: attributes.verb,
      group: attributes.apiGroup,
      version: attributes.apiVersion,
      resource: attributes.resource,
      subresource: attributes.subresource,
      name: attributes.name,
    };
  } else {
    spec.nonResourceAttributes = { path: attributes.path, verb: attributes.verb };
  }
  return spec;
}

/**
 * kube's delegated authorizer (webhook authorizer over the SubjectAccessReview API): every request's attributes are
 * sent to the main server as an authorization.k8s.io/v1 SubjectAccessReview; `allowed` allows, `denied` denies,
 * anything else has no opinion, each with the main server's reason, and answers are cached by their whole spec (so
 * users never share an answer). When the main server cannot be asked the decision is no opinion with an evaluation
 * error: the request is answered 500, never allowed. Rules (SelfSubjectRulesReview) are not delegated: none, incomplete.
 */
export function subjectAccessReviewAuthorizer(options: SubjectAccessReviewOptions): Authorizer {
  const allowTtl = options.allowCacheTtlMs ?? DEFAULT_ALLOW_CACHE_TTL_MS;
  const denyTtl = options.denyCacheTtlMs ?? DEFAULT_DENY_CACHE_TTL_MS;
  const cache = new TtlCache<Decision>(4096, options.now);
  return {
    name: 'Webhook',
    async authorize(attributes): Promise<Decision> {
      const spec = subjectAccessReviewSpec(attributes);
      const key = JSON.stringify(spec);
      const cached = cache.get(key);
      if (cached) return { ...cached };
      let status: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
      try {
        const answer = (await options.client.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec,
        })) as { status?: typeof status };
        status = answer.status ?? {};
      } catch (err) {
        return { decision: 'no-opinion', evaluationError: `error contacting webhook: ${(err as Error).message}` };
      }
      const decision: Decision = { decision: status.allowed ? 'allow' : status.denied ? 'deny' : 'no-opinion' };
      if (status.reason) decision.reason = status.reason;
      cache.set(key, decision, decision.decision === 'allow' ? allowTtl : denyTtl);
      return { ...decision };
    },
    rulesFor(_user: UserInfo, _namespace: string): SubjectRules {
      return { resourceRules: [], nonResourceRules: [], incomplete: true };
    },
  };
}
