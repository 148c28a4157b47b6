import type { ImportNotes, ProtoMessages, SwaggerSchema } from './types.js';

/** State shared by one import run. `definitions` grows when embedded or list-wrapper messages are synthesized. */
export interface ConvertContext {
  definitions: Map<string, SwaggerSchema>;
  messages: ProtoMessages;
  notes: ImportNotes;
  /**
   * Keep Protobuf fields that swagger lacks (version skew: the Protobuf list is newer for some types), as
   * properties typed from Protobuf. On by default, because upstream's golden wire objects carry these fields and
   * must decode without loss; off, such fields are skipped and listed in the notes.
   */
  keepProtoOnlyFields: boolean;
}

/** Keys never copied from swagger: they describe upstream's own machinery, not the schema. */
const DROPPED_EXTENSIONS = new Set([
  'x-kubernetes-group-version-kind',
  'x-kubernetes-unions',
  'x-kubernetes-validations',
]);

/** The `x-kubernetes-*` keys of a swagger node that Kapi keeps. */
export function kubernetesExtensions(node: SwaggerSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-kubernetes-') && !DROPPED_EXTENSIONS.has(key)) out[key] = value;
  }
  return out;
}
