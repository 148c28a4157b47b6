import { isObj, newBadRequest, type KubeObject } from '@kapi/apimachinery';
import type { AdmissionChain } from '../admission/chain.js';
import type { SubresourceAction } from '../host.js';
import { admissionAttributes } from '../registry/admission-attributes.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import { decodeLoose, decodeObject } from './decode.js';
import type { SubresourceHandler } from './resource-handler.js';
import { render, response, warningHeader } from './respond.js';

/** The kind a subresource's body is (the Eviction of pods/eviction), as the resource's discovery names it. */
function bodyEntry(registry: ResourceRegistry, entry: ResourceEntry, subresource: string): ResourceEntry | undefined {
  if (!subresource) return entry;
  const other = entry.info.subresources.others?.find((o) => o.name === subresource);
  if (!other?.kind) return entry;
  return registry.byKind(other.group ?? entry.info.group, other.version ?? entry.info.version, other.kind);
}

/**
 * A plugin's subresource action as a handler: its body decoded from JSON, YAML, CBOR or Protobuf (as the kind the
 * subresource takes, kubectl sends some bodies as Protobuf), its answer written in the format the client
 * negotiated. A create (pods/eviction, pods/binding, bindings) is admitted as kube admits it, a CREATE of the
 * subresource with the body as the object (mutating admission may change it before the action reads it); the
 * writes the action then makes are not admitted again.
 */
export function pluginSubresourceHandler(registry: ResourceRegistry, action: SubresourceAction, admission?: AdmissionChain): SubresourceHandler {
  return async ({ info, ctx, format, body, bodyFormat }) => {
    const target = bodyEntry(registry, ctx.entry, info.subresource);
    let decodedBody: Promise<unknown> | undefined;
    const decoded = () =>
      (decodedBody ??= (async () => {
        const kind = bodyFormat();
        const bytes = await body();
        if (kind !== 'protobuf') return decodeLoose(kind, bytes);
        return target ? decodeObject(target, 'protobuf', bytes) : undefined;
      })());
    let actionCtx = ctx;
    if (info.verb === 'create') {
      // A create's body is the object created (an Eviction, a Binding, a TokenRequest): without one, or with something
      // that is not an object, it is 400 as kube's decoding answers, and admission is never skipped for it.
      const obj = await decoded();
      const declared = ctx.entry.info.subresources.others?.find((o) => o.name === info.subresource);
      if (!isObj(obj)) {
        const empty = (await body()).length === 0;
        throw newBadRequest(empty ? 'the request body is empty' : `the body of the request must be a single ${declared?.kind ?? 'object'} object`);
      }
      if (admission) {
        const attrs = admissionAttributes(ctx, 'CREATE', info.name, obj);
        if (declared?.kind) attrs.kind = { group: declared.group ?? ctx.entry.info.group, version: declared.version ?? ctx.entry.info.version, kind: declared.kind };
        await admission.mutate(attrs);
        await admission.validate(attrs);
        actionCtx = { ...ctx, admitted: true };
      }
    }
    const { status, object } = await action({ ctx: actionCtx, name: info.name, verb: info.verb, body: decoded });
    // Warnings of admission and of the action (kube's warning recorder) go out with the answer.
    return response(render(object as KubeObject, format), status, warningHeader(ctx.warnings ?? []));
  };
}
