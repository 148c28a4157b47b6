import { render } from '../respond.js';
import { replyRead, transformObject, type RequestScope } from './scope.js';

/** GET of one object (kube's GetResource), as itself or converted as negotiated (Table, PartialObjectMetadata). */
export async function getHandler(scope: RequestScope): Promise<Response> {
  const obj = await scope.store.get(scope.ctx, scope.info.name, scope.query.get('resourceVersion') ?? '');
  const { value, protobuf } = transformObject(scope, obj);
  return replyRead(scope, render(value, scope.format, { pretty: scope.pretty, protobuf }));
}
