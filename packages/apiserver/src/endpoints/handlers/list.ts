import type { KubeObject } from '@kapi/apimachinery';
import { parseListOptions } from '../../registry/list-options.js';
import { render } from '../respond.js';
import { protobufOf, replyRead, tableOf, type RequestScope } from './scope.js';

/** GET of a collection (kube's ListResource), as a list or as a Table. */
export async function listHandler(scope: RequestScope): Promise<Response> {
  const list = await scope.store.list(scope.ctx, parseListOptions(scope.entry, scope.query));
  if (scope.format.kind === 'table') {
    const table = tableOf(scope, list.items, list.metadata as Record<string, unknown>);
    return replyRead(scope, render(table, { kind: 'json' }, { pretty: scope.pretty }));
  }
  return replyRead(scope, render(list as unknown as KubeObject, scope.format, { pretty: scope.pretty, protobuf: protobufOf(scope, true) }));
}
