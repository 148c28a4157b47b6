import { isStatusError, newBadRequest, newInvalid, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import type { AdmissionChain } from '../admission/chain.js';
import { admissionAttributes } from '../registry/admission-attributes.js';
import { INVALID_BEARER_TOKEN, withAuthenticatedGroup } from '../auth/authenticators.js';
import type { AuthorizationAttributes, Authenticator, Authorizer } from '../auth/types.js';
import { decodeObject } from '../endpoints/decode.js';
import type { SubresourceHandler } from '../endpoints/resource-handler.js';
import { render, response } from '../endpoints/respond.js';
import type { RequestContext } from '../registry/store.js';

/** Answers one review: the status of the POSTed question, for the requesting user (`ctx.user`). */
export type ReviewAnswer = (review: KubeObject, ctx: RequestContext) => Promise<Record<string, unknown>>;

/**
 * The access reviews (authorization.k8s.io/v1, authentication.k8s.io/v1): virtual resources that answer a POSTed
 * question and store nothing.
 */
export function reviewHandler(answer: ReviewAnswer, admission?: AdmissionChain): SubresourceHandler {
  return async ({ ctx, format, body, bodyFormat }) => {
    const review = decodeObject(ctx.entry, bodyFormat(), await body());
    if (!review.spec && ctx.entry.info.kind !== 'SelfSubjectReview') throw newBadRequest('spec is required');
    const meta = { ...(review.metadata as Record<string, unknown> | undefined) };
    if (ctx.entry.info.scope === 'Namespaced') meta.namespace = ctx.namespace;
    const asked = { ...review, metadata: meta };
    // A review is a create kube admits like any other (its REST Create runs createValidation): webhooks and
    // policies see it, and may refuse it.
    if (admission) {
      const attrs = admissionAttributes(ctx, 'CREATE', String(meta.name ?? ''), asked);
      await admission.mutate(attrs);
      await admission.validate(attrs);
    }
    const out = { ...asked, status: await answer(asked, ctx) };
    return response(render(out, format, {
      protobuf: { codec: ctx.entry.codec(), message: ctx.entry.info.protobuf.message },
    }), 201);
  };
}

export interface ReviewDeps {
  /** The server's authorizer (the union of its `--authorization-mode`s). */
  authorizer: Authorizer;
  /** The server's authenticators; TokenReview runs them on `Authorization: Bearer <spec.token>`. */
  authenticators: readonly Authenticator[];
  /** The server's API audiences (`--api-audiences`). */
  apiAudiences: readonly string[];
}

interface ResourceAttributesSpec {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}
interface NonResourceAttributesSpec {
  path?: string;
  verb?: string;
}
interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributesSpec;
  nonResourceAttributes?: NonResourceAttributesSpec;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
  namespace?: string;
  token?: string;
  audiences?: unknown;
}

const specOf = (review: KubeObject) => (review.spec ?? {}) as AccessReviewSpec;

/** The answers by resource plural, decided by the server's authorizer and authenticators. */
export function reviewAnswers(deps: ReviewDeps): Record<string, ReviewAnswer> {
  const decide = async (attributes: AuthorizationAttributes) => {
    const decision = await deps.authorizer.authorize(attributes);
    const status: Record<string, unknown> = { allowed: decision.decision === 'allow' };
    if (decision.decision === 'deny') status.denied = true;
    if (decision.reason) status.reason = decision.reason;
    if (decision.evaluationError) status.evaluationError = decision.evaluationError;
    return status;
  };

  return {
    async subjectaccessreviews(review, ctx) {
      const spec = specOf(review);
      const errors = validateSpec(spec);
      if (!spec.user && !spec.groups?.length) errors.push({ type: 'FieldValueInvalid', field: 'spec.user', badValue: spec.user ?? '', message: 'at least one of user or group must be specified' });
      if (errors.length) throw invalid(ctx, review, errors);
      const user: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [] };
      if (spec.uid) user.uid = spec.uid;
      if (spec.extra) user.extra = spec.extra;
      return decide(attributesFrom(user, spec));
    },
    async localsubjectaccessreviews(review, ctx) {
      const spec = specOf(review);
      const errors = validateSpec(spec);
      if (!spec.user && !spec.groups?.length) errors.push({ type: 'FieldValueInvalid', field: 'spec.user', badValue: spec.user ?? '', message: 'at least one of user or group must be specified' });
      if (spec.nonResourceAttributes) errors.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', badValue: spec.nonResourceAttributes, message: 'disallowed on this kind of request' });
      const ns = spec.resourceAttributes?.namespace;
      if (ns && ns !== ctx.namespace) errors.push({ type: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', badValue: ns, message: 'must match metadata.namespace' });
      if (errors.length) throw invalid(ctx, review, errors);
      const user: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [] };
      if (spec.uid) user.uid = spec.uid;
      if (spec.extra) user.extra = spec.extra;
      return decide(attributesFrom(user, { ...spec, resourceAttributes: { ...spec.resourceAttributes, namespace: ctx.namespace } }));
    },
    async selfsubjectaccessreviews(review, ctx) {
      const spec = specOf(review);
      const errors = validateSpec(spec);
      if (errors.length) throw invalid(ctx, review, errors);
      return decide(attributesFrom(ctx.user, spec));
    },
    async selfsubjectrulesreviews(review, ctx) {
      const namespace = specOf(review).namespace ?? '';
      if (!namespace) throw newBadRequest('no namespace on request');
      const rules = await deps.authorizer.rulesFor(ctx.user, namespace);
      const status: Record<string, unknown> = {
        resourceRules: rules.resourceRules,
        nonResourceRules: rules.nonResourceRules,
        incomplete: rules.incomplete,
      };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      return status;
    },
    async selfsubjectreviews(_review, ctx) {
      return { userInfo: userInfoOf(ctx.user) };
    },
    async tokenreviews(review) {
      const spec = specOf(review);
      const token = spec.token;
      if (!token) throw newBadRequest('token is required for TokenReview in authentication');
      const asked = spec.audiences;
      if (asked !== undefined && asked !== null && (!Array.isArray(asked) || asked.some((a) => typeof a !== 'string'))) {
        throw newBadRequest('spec.audiences must be a list of strings');
      }
      // kube's TokenReview REST: the audiences asked for, or the API's; the token must be good for one of them.
      const audiences = Array.isArray(asked) && asked.length ? (asked as string[]) : [...deps.apiAudiences];
      // A token no header can carry (a newline, a character past Latin-1) is no bearer token at all.
      let headers: Headers;
      try {
        headers = new Headers({ authorization: `Bearer ${token}` });
      } catch {
        return { authenticated: false, error: INVALID_BEARER_TOKEN };
      }
      const request = { headers, audiences: audiences.length ? audiences : undefined };
      const errors: string[] = [];
      for (const authenticator of deps.authenticators) {
        try {
          const user = await authenticator(request);
          if (!user) continue;
          const { audiences: matched, ...info } = user;
          // kube's WrapAudienceAgnosticToken: a credential without audiences of its own is good for the API's only.
          const good = matched ?? (audiences.length ? deps.apiAudiences.filter((a) => audiences.includes(a)) : undefined);
          if (good && !good.length) continue;
          const status: Record<string, unknown> = { authenticated: true, user: userInfoOf(withAuthenticatedGroup(info)) };
          if (good) status.audiences = good;
          return status;
        } catch (err) {
          errors.push(isStatusError(err) ? err.status.message ?? '' : String((err as Error)?.message ?? err));
        }
      }
      // The most telling reason: a specific one (a service-account token's) over the generic refusal of the others.
      const error = errors.find((e) => e !== INVALID_BEARER_TOKEN) ?? errors[0];
      return error ? { authenticated: false, error } : { authenticated: false };
    },
  };
}

/** authentication.k8s.io/v1 UserInfo, without the fields the user does not have. */
function userInfoOf(user: UserInfo): Record<string, unknown> {
  const info: Record<string, unknown> = { username: user.username };
  if (user.uid) info.uid = user.uid;
  info.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length) info.extra = user.extra;
  return info;
}

/**
 * kube's authorizationutil.AuthorizationAttributesFrom: resource attributes when given (an empty version means
 * every version, `*`), else non-resource ones.
 */
function attributesFrom(user: UserInfo, spec: AccessReviewSpec): AuthorizationAttributes {
  const base = { user, path: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
  const r = spec.resourceAttributes;
  if (r) {
    return {
      ...base,
      verb: r.verb ?? '',
      resourceRequest: true,
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version || '*',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { ...base, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '' };
}

/**
 * One of resourceAttributes or nonResourceAttributes is required. kube also rejects both at once; here resource
 * attributes win then, as in AuthorizationAttributesFrom, so upstream's golden objects (which set both) round-trip.
 */
function validateSpec(spec: AccessReviewSpec): FieldError[] {
  if (spec.resourceAttributes || spec.nonResourceAttributes) return [];
  return [{ type: 'FieldValueInvalid', field: 'spec.resourceAttributes', badValue: null, message: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' }];
}

function invalid(ctx: RequestContext, review: KubeObject, errors: FieldError[]) {
  const name = (review.metadata as { name?: string } | undefined)?.name ?? '';
  return newInvalid({ group: ctx.entry.info.group, kind: ctx.entry.info.kind }, name, errors);
}
