import { cloneJson, labelSelectorFromObject, newBadRequest, newInvalid, newNotFound, type KubeObject } from '@kapi/apimachinery';
import { decodeLoose } from '../endpoints/decode.js';
import { fieldManagerOf, trackWrite, type VersionRegistry } from '../endpoints/managed-fields.js';
import { applyPatch, patchTypeOf } from '../endpoints/patch.js';
import type { SubresourceHandler } from '../endpoints/resource-handler.js';
import { render, response } from '../endpoints/respond.js';
import type { ResourceEntry } from '../registry/resources.js';
import type { Store } from '../registry/store.js';
import type { AdmissionChain } from '../admission/chain.js';
import { admissionAttributes } from '../registry/admission-attributes.js';

/** Reads a value at a CRD-style path (`.spec.replicas`). */
function at(obj: unknown, path: string): unknown {
  let v = obj;
  for (const p of path.split('.').filter(Boolean)) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

function setAt(obj: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split('.').filter(Boolean);
  let v = obj;
  for (const p of parts.slice(0, -1)) v = (v[p] ??= {}) as Record<string, unknown>;
  v[parts[parts.length - 1]] = value;
}

/** The autoscaling/v1 Scale of an object with a scale subresource. */
export function scaleOf(entry: ResourceEntry, obj: KubeObject): KubeObject {
  const paths = entry.info.subresources.scale!;
  const meta = obj.metadata as Record<string, string | undefined>;
  let selector = paths.labelSelectorPath ? at(obj, paths.labelSelectorPath) : undefined;
  if (typeof selector !== 'string') {
    const specSelector = at(obj, '.spec.selector');
    selector = specSelector && typeof specSelector === 'object' ? labelSelectorFromObject(specSelector as never).toString() : '';
  }
  const status: Record<string, unknown> = { replicas: Number(at(obj, paths.statusReplicasPath) ?? 0) };
  if (selector) status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: Number(at(obj, paths.specReplicasPath) ?? 0) },
    status,
  };
}

const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/**
 * `<resource>/scale`: GET the Scale; PUT or PATCH a Scale to change the parent's replicas. Admission sees the
 * write as kube shows it, an UPDATE of the scale subresource with the autoscaling/v1 Scale (a mutating webhook can
 * change only what a Scale holds); the parent's own write is not admitted again.
 */
export function scaleHandler(store: Store, admission?: AdmissionChain, registry?: VersionRegistry): SubresourceHandler {
  return async ({ request, info, ctx, body, bodyFormat }) => {
    const { entry } = ctx;
    const paths = entry.info.subresources.scale!;
    const gr = { group: entry.info.group, resource: entry.info.plural };
    if (info.verb === 'get') return response(render(scaleOf(entry, await store.get(ctx, info.name)), { kind: 'json' }), 200);
    const raw = await body();
    const patchType = info.verb === 'patch' ? patchTypeOf(request.headers.get('content-type'), { strategic: true }) : undefined;
    const input = patchType ? decodeLoose('json', raw) : decodeLoose(bodyFormat() === 'yaml' ? 'yaml' : 'json', raw);
    const scaleCtx = { ...ctx, subresource: 'scale' };
    // The write is recorded in managedFields as kube records it: an Update entry with `subresource: scale`.
    const manager = fieldManagerOf(new URL(request.url).searchParams, request.headers.get('user-agent'), { apply: false, optionsKind: patchType ? 'PatchOptions' : 'UpdateOptions' });
    const result = await store.update({ ...scaleCtx, admitted: !!admission }, info.name, async (current) => {
      if (!current) throw newNotFound(gr, info.name);
      const currentScale = scaleOf(entry, current);
      const scale = (patchType ? applyPatch(patchType, currentScale, input, { group: 'autoscaling', kind: 'Scale' }, info.name) : input) as KubeObject;
      if (!scale || typeof scale !== 'object' || Array.isArray(scale)) throw newBadRequest('the body must be a Scale object');
      const attrs = admission && admissionAttributes(scaleCtx, 'UPDATE', info.name, scale, currentScale);
      if (attrs) {
        attrs.kind = SCALE_KIND;
        await admission!.mutate(attrs);
      }
      const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
      if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
        throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, info.name, [
          { type: 'FieldValueInvalid', field: 'spec.replicas', badValue: replicas, message: 'must be greater than or equal to 0' },
        ]);
      }
      const rv = (scale.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
      const updated = cloneJson(current);
      if (rv) (updated.metadata as Record<string, unknown>).resourceVersion = rv;
      else delete (updated.metadata as Record<string, unknown>).resourceVersion;
      setAt(updated as Record<string, unknown>, paths.specReplicasPath, replicas);
      if (attrs) await admission!.validate(attrs);
      await trackWrite(entry, 'scale', manager, current, updated, registry);
      return updated;
    }, { allowCreate: false });
    return response(render(scaleOf(entry, result.obj), { kind: 'json' }), 200);
  };
}
