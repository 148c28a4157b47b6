import { cloneJson } from '@kapi/apimachinery';
import { auditRequestObject } from '../../audit/context.js';
import { decodeObjectWithDuplicates } from '../decode.js';
import { checkFields, parseFieldValidation } from '../field-validation.js';
import { fieldManagerOf, trackWrite } from '../managed-fields.js';
import { andThen } from '../../maybe.js';
import { reply, writeOptions, type RequestScope } from './scope.js';

/** PUT of an object or its status (kube's UpdateResource): replaces it, or creates it where the kind allows. */
export async function updateHandler(scope: RequestScope): Promise<Response> {
  const { entry, query, info } = scope;
  const level = parseFieldValidation(query);
  scope.ctx.options = writeOptions(query);
  const manager = fieldManagerOf(query, scope.request.headers.get('user-agent'), { apply: false, optionsKind: 'UpdateOptions' });
  const { obj, duplicates } = decodeObjectWithDuplicates(entry, scope.bodyFormat(), await scope.body());
  auditRequestObject(obj);
  checkFields(entry, obj, level, scope.ctx.warnings!, duplicates);
  const result = await scope.store.update(scope.ctx, info.name, (current) => {
    const next = cloneJson(obj);
    return andThen(trackWrite(entry, info.subresource, manager, current, next, scope.registry), () => next);
  });
  return reply(scope, result.obj, result.created ? 201 : 200);
}
