import { auditRequestObject } from '../../audit/context.js';
import { decodeObjectWithDuplicates } from '../decode.js';
import { checkFields, parseFieldValidation } from '../field-validation.js';
import { fieldManagerOf, trackWrite } from '../managed-fields.js';
import { reply, writeOptions, type RequestScope } from './scope.js';

/** POST to a collection (kube's CreateResource). */
export async function createHandler(scope: RequestScope): Promise<Response> {
  const { entry, query } = scope;
  const level = parseFieldValidation(query);
  scope.ctx.options = writeOptions(query);
  const manager = fieldManagerOf(query, scope.request.headers.get('user-agent'), { apply: false, optionsKind: 'CreateOptions' });
  const { obj, duplicates } = decodeObjectWithDuplicates(entry, scope.bodyFormat(), await scope.body());
  auditRequestObject(obj);
  checkFields(entry, obj, level, scope.ctx.warnings!, duplicates);
  // A kind served in one version tracks synchronously; another may wait for a conversion.
  const tracking = trackWrite(entry, '', manager, undefined, obj, scope.registry);
  if (tracking) await tracking;
  // The decoded body is this request's own (the audit log kept its own copy): the Store may work on it directly.
  return reply(scope, await scope.store.create(scope.ctx, obj, { owned: true }), 201);
}
