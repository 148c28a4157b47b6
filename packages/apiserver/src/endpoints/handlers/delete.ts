import type { KubeObject } from '@kapi/apimachinery';
import { requestAttributes } from '../../auth/attributes.js';
import { forbiddenError } from '../../auth/forbidden.js';
import type { ResourceEntry } from '../../registry/resources.js';
import { metaCodec, render, response, STATUS_MESSAGE } from '../respond.js';
import { parseDeleteOptions } from './delete-options.js';
import { reply, type RequestScope } from './scope.js';

/**
 * DELETE of one object (kube's DeleteResource): two-phase per the Store; the answer is the object while it is
 * held back by finalizers (or for kinds that return it), else a Success Status. The forced deletion of a corrupt
 * object needs `unsafe-delete-ignore-read-errors` on the resource besides `delete`.
 */
export async function deleteHandler(scope: RequestScope): Promise<Response> {
  const { entry, info, store } = scope;
  const options = parseDeleteOptions(scope.query, scope.bodyFormat(), await scope.body());
  if (options.ignoreStoreReadErrorWithClusterBreakingPotential) {
    if (scope.authorizer) {
      const url = new URL(scope.request.url);
      const attributes = { ...requestAttributes(scope.ctx.user, 'DELETE', url.pathname, url.searchParams), verb: 'unsafe-delete-ignore-read-errors' };
      const decision = await scope.authorizer.authorize(attributes);
      if (decision.decision !== 'allow') throw forbiddenError(attributes, decision.reason);
    }
    await store.forceDeleteCorrupt(scope.ctx, info.name, options, scope.features.unsafeDeletion);
    return successResponse(scope, entry, { metadata: { name: info.name } });
  }
  const result = await store.delete({ ...scope.ctx, dryRun: scope.ctx.dryRun || options.dryRun }, info.name, options);
  if (!result.removed || entry.strategy.returnDeletedObject) return reply(scope, result.obj, 200);
  return successResponse(scope, entry, result.obj);
}

/** kube's answer to a completed delete for kinds that do not return the object. */
function successResponse(scope: RequestScope, entry: ResourceEntry, obj: KubeObject): Response {
  const meta = obj.metadata as { name?: string; uid?: string };
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: meta.name, group: entry.info.group || undefined, kind: entry.info.plural, uid: meta.uid },
  };
  return response(render(status, scope.format, { protobuf: { codec: metaCodec(), message: STATUS_MESSAGE } }), 200);
}
