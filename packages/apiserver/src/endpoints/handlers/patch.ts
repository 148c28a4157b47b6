import { newBadRequest, newInvalid, newNotFound, type KubeObject } from '@kapi/apimachinery';
import { queryFlag } from '../../registry/list-options.js';
import { auditRequestObject } from '../../audit/context.js';
import { decodeLoose } from '../decode.js';
import { checkFields, parseFieldValidation } from '../field-validation.js';
import { applyConfiguration, fieldManagerOf, trackWrite } from '../managed-fields.js';
import { applyPatch, patchTypeOf } from '../patch.js';
import { andThen } from '../../maybe.js';
import { reply, writeOptions, type RequestScope } from './scope.js';

/**
 * PATCH of an object or its status (kube's PatchResource): JSON, merge and strategic merge patches change the
 * stored object; server-side apply (YAML or CBOR) merges the applied configuration by field ownership, and may
 * create the object.
 */
export async function patchHandler(scope: RequestScope): Promise<Response> {
  const { entry, query, info, ctx } = scope;
  const level = parseFieldValidation(query);
  scope.ctx.options = writeOptions(query);
  const type = patchTypeOf(scope.request.headers.get('content-type'), { strategic: !!entry.group.strategicMergePatch, cbor: scope.features.media.some((m) => m.name === 'cbor') });
  const apply = type === 'apply' || type === 'apply-cbor';
  const force = parseForce(query, apply);
  const manager = fieldManagerOf(query, scope.request.headers.get('user-agent'), { apply, optionsKind: 'PatchOptions' });
  const raw = await scope.body();
  if (apply) {
    const applied = decodeLoose(type === 'apply-cbor' ? 'cbor' : 'yaml', raw) as KubeObject;
    if (!applied || typeof applied !== 'object' || Array.isArray(applied)) throw newBadRequest('the apply configuration must be an object');
    auditRequestObject(applied, { patch: true });
    checkFields(entry, applied, level, ctx.warnings!, [], { defaults: false, nulls: true });
    const result = await scope.store.update(ctx, info.name, (current) =>
      andThen(applyConfiguration(entry, info.subresource, current, applied, manager, force, scope.registry), (merged) => {
        entry.defaults(merged);
        return merged;
      }), { allowCreate: info.subresource === '' });
    return reply(scope, result.obj, result.created ? 201 : 200);
  }
  const patch = decodeLoose('json', raw);
  auditRequestObject(patch, { patch: true });
  const gk = { group: entry.info.group, kind: entry.info.kind };
  const result = await scope.store.update(ctx, info.name, (current) => {
    if (!current) throw newNotFound({ group: entry.info.group, resource: entry.info.plural }, info.name);
    const patched = applyPatch(type, current, patch, gk, info.name, entry.info.patchMeta);
    checkFields(entry, patched, level, ctx.warnings!);
    return andThen(trackWrite(entry, info.subresource, manager, current, patched, scope.registry), () => patched);
  }, { allowCreate: false });
  return reply(scope, result.obj, 200);
}

/**
 * `force` (apply only), read as kube converts booleans: only `false` and `0` (any case) are false, so the Python
 * client's `True` forces; on another patch it is 422 as kube answers it.
 */
function parseForce(query: URLSearchParams, apply: boolean): boolean {
  const value = query.get('force');
  if (value === null || value === '') return false;
  if (!apply) {
    throw newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [
      { type: 'FieldValueForbidden', field: 'force', message: 'may not be specified for non-apply patch' },
    ]);
  }
  return queryFlag(query, 'force') ?? false;
}
