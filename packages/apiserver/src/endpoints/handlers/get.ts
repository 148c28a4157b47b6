import { render } from '../respond.js';
import { protobufOf, replyRead, tableOf, type RequestScope } from './scope.js';

/** GET of one object (kube's GetResource), as itself or as a Table. */
export async function getHandler(scope: RequestScope): Promise<Response> {
  const obj = await scope.store.get(scope.ctx, scope.info.name, scope.query.get('resourceVersion') ?? '');
  if (scope.format.kind === 'table') return replyRead(scope, render(tableOf(scope, [obj]), { kind: 'json' }, { pretty: scope.pretty }));
  return replyRead(scope, render(obj, scope.format, { pretty: scope.pretty, protobuf: protobufOf(scope) }));
}
