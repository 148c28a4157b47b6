import { newUnsupportedMediaType, type KubeObject } from '@kapi/apimachinery';
import type { SubresourceAction } from '../host.js';
import { decodeLoose } from './decode.js';
import type { SubresourceHandler } from './resource-handler.js';
import { render, response } from './respond.js';

/**
 * A plugin's subresource action as a handler: its body decoded from JSON, YAML or CBOR (a Protobuf body is 415:
 * its message depends on the subresource), its answer written in the format the client negotiated.
 */
export function pluginSubresourceHandler(action: SubresourceAction): SubresourceHandler {
  return async ({ info, ctx, format, body, bodyFormat }) => {
    const decoded = async () => {
      const kind = bodyFormat();
      if (kind === 'protobuf') throw newUnsupportedMediaType(['application/json', 'application/yaml', 'application/cbor']);
      return decodeLoose(kind, await body());
    };
    const { status, object } = await action({ ctx, name: info.name, verb: info.verb, body: decoded });
    return response(render(object as KubeObject, format), status);
  };
}
