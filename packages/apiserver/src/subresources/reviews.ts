import { newBadRequest, type KubeObject } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import { decodeObject } from '../endpoints/decode.js';
import { requestBodyFormat } from '../endpoints/negotiate.js';
import type { SubresourceHandler } from '../endpoints/resource-handler.js';
import { render, response } from '../endpoints/respond.js';

/**
 * The access reviews (authorization.k8s.io/v1, authentication.k8s.io/v1) under the AlwaysAllow authorizer:
 * virtual resources that answer a POSTed question and store nothing. RBAC replaces the answers in its own work.
 */
export function reviewHandler(answer: (review: KubeObject, user: UserInfo) => Record<string, unknown>): SubresourceHandler {
  return async ({ request, ctx, format, body }) => {
    const review = decodeObject(ctx.entry, requestBodyFormat(request.headers.get('content-type')), await body());
    if (!review.spec && ctx.entry.info.kind !== 'SelfSubjectReview') throw newBadRequest('spec is required');
    const meta = { ...(review.metadata as Record<string, unknown> | undefined) };
    if (ctx.entry.info.scope === 'Namespaced') meta.namespace = ctx.namespace;
    const out = { ...review, metadata: meta, status: answer(review, ctx.user) };
    return response(render(out, format.kind === 'table' ? { kind: 'json' } : format, {
      protobuf: { codec: ctx.entry.codec(), message: ctx.entry.info.protobuf.message },
    }), 201);
  };
}

export const alwaysAllowAnswers: Record<string, (review: KubeObject, user: UserInfo) => Record<string, unknown>> = {
  subjectaccessreviews: () => ({ allowed: true }),
  localsubjectaccessreviews: () => ({ allowed: true }),
  selfsubjectaccessreviews: () => ({ allowed: true }),
  selfsubjectrulesreviews: () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
  selfsubjectreviews: (_review, user) => ({ userInfo: { username: user.username, uid: user.uid, groups: user.groups, extra: user.extra } }),
  tokenreviews: () => ({ authenticated: false, error: 'no token authenticator is configured' }),
};
