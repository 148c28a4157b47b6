import type { KubeObject } from '@kapi/apimachinery';
import { parseListOptions } from '../../registry/list-options.js';
import { parseDeleteOptions } from './delete-options.js';
import { reply, type RequestScope } from './scope.js';

/** DELETE of a collection (kube's DeleteCollection): deletes what the selectors select; answers the list. */
export async function deleteCollectionHandler(scope: RequestScope): Promise<Response> {
  const options = parseDeleteOptions(scope.query, scope.bodyFormat(), await scope.body());
  const ctx = { ...scope.ctx, dryRun: scope.ctx.dryRun || options.dryRun };
  const { list, results } = await scope.store.deleteCollection(ctx, parseListOptions(scope.entry, scope.query), options);
  return reply(scope, { ...list, items: results.map((r) => r.obj) } as unknown as KubeObject, 200, true);
}
