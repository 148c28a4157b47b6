import { parseListOptions } from '../../registry/list-options.js';
import { render } from '../respond.js';
import { replyRead, transformList, type RequestScope } from './scope.js';

/** GET of a collection (kube's ListResource), as a list or converted as negotiated (Table, PartialObjectMetadataList). */
export async function listHandler(scope: RequestScope): Promise<Response> {
  const list = await scope.store.list(scope.ctx, parseListOptions(scope.entry, scope.query));
  const { value, protobuf } = transformList(scope, list);
  return replyRead(scope, render(value, scope.format, { pretty: scope.pretty, protobuf }));
}
