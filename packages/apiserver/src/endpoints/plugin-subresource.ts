import type { KubeObject } from '@kapi/apimachinery';
import type { SubresourceAction } from '../host.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import { decodeLoose, decodeObject } from './decode.js';
import type { SubresourceHandler } from './resource-handler.js';
import { render, response } from './respond.js';

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
 * negotiated.
 */
export function pluginSubresourceHandler(registry: ResourceRegistry, action: SubresourceAction): SubresourceHandler {
  return async ({ info, ctx, format, body, bodyFormat }) => {
    const decoded = async () => {
      const kind = bodyFormat();
      const bytes = await body();
      if (kind !== 'protobuf') return decodeLoose(kind, bytes);
      const target = bodyEntry(registry, ctx.entry, info.subresource);
      return target ? decodeObject(target, 'protobuf', bytes) : undefined;
    };
    const { status, object } = await action({ ctx, name: info.name, verb: info.verb, body: decoded });
    return response(render(object as KubeObject, format), status);
  };
}
