import { newMethodNotSupported, newNotFound, type KubeList, type KubeObject } from '@kapi/apimachinery';
import type { ComputedResource } from '../host.js';
import { groupResource } from './errors.js';
import { selects } from './list.js';
import { ALL_OBJECTS, validateListOptions } from './list-options.js';
import { metaOf } from './object-meta.js';
import { apiVersionOf } from './resources.js';
import type { RequestContext, Store } from './store.js';

/** An object as its kind's reads carry it: the served version's apiVersion and kind, no namespace for a cluster-scoped kind. */
function stamped(ctx: RequestContext, obj: KubeObject): KubeObject {
  const { info } = ctx.entry;
  const out = { ...obj, apiVersion: apiVersionOf(info), kind: info.kind, metadata: { ...metaOf(obj) } } as KubeObject;
  if (info.scope !== 'Namespaced') delete (out.metadata as Record<string, unknown>).namespace;
  return out;
}

/**
 * A Store over a plugin's computed resource (kube's rest.Getter and rest.Lister with no storage behind them, as
 * componentstatuses): get asks the plugin and answers 404 for a name it does not know; list asks it for every object
 * and keeps those the request's label and field selectors select (kube's componentstatus REST applies them after
 * computing). Nothing is stored, so a list has no resourceVersion and no chunks (`limit` and `continue` are
 * ignored, as kube ignores them there). Every other verb is 405: discovery lists only get and list.
 */
export function computedStore(resource: ComputedResource): Store {
  const unsupported = (verb: string) => async (ctx: RequestContext) => {
    throw newMethodNotSupported(groupResource(ctx.entry), verb);
  };
  return {
    async get(ctx, name) {
      const obj = await resource.get(ctx, name);
      if (!obj) throw newNotFound(groupResource(ctx.entry), name);
      return stamped(ctx, obj);
    },
    async find(ctx, name) {
      const obj = await resource.get(ctx, name);
      return obj && stamped(ctx, obj);
    },
    async list(ctx, options = ALL_OBJECTS): Promise<KubeList> {
      validateListOptions(options, 'list', false);
      const items = (await resource.list(ctx)).map((obj) => stamped(ctx, obj)).filter((obj) => selects(ctx.entry, options, obj));
      return { apiVersion: apiVersionOf(ctx.entry.info), kind: ctx.entry.info.listKind, metadata: {}, items };
    },
    create: unsupported('create'),
    update: unsupported('update'),
    delete: unsupported('delete'),
    deleteCollection: unsupported('deletecollection'),
    watch: unsupported('watch'),
    forceDeleteCorrupt: unsupported('delete'),
  };
}
