import { convertClosure } from './closure.js';
import type { ConvertContext } from './context.js';
import { groupFiles } from './groups.js';
import { gvkOf, resourceHeader } from './header.js';
import { filePathOf, locationOf } from './names.js';
import { restOperations } from './paths.js';
import { KINDS, SUPPORT_TYPES } from './roots.js';
import { canonicalSchema, jsonText } from './serialize.js';
import { withSyntheticDefinitions, withSyntheticMessages } from './synthetic/index.js';
import type { ImportNotes, ProtoMessages, SwaggerDocument } from './types.js';

export interface ImportResult {
  /** Path relative to the schemas directory (`core/v1/Pod.json`, `core/group.json`) → file content. */
  files: Map<string, string>;
  /** The `<folder>` directories the import owns entirely. */
  folders: string[];
  notes: ImportNotes;
}

/**
 * Turns upstream's OpenAPI v2 document and Protobuf field list into Kapi schema files: the kinds in
 * `roots.ts` and everything they reference. Pure: the same inputs always give the same bytes.
 */
export function buildKubernetesSchemas(
  swagger: SwaggerDocument,
  protoFields: ProtoMessages,
  options: { keepProtoOnlyFields?: boolean } = {},
): ImportResult {
  const messages = withSyntheticMessages(protoFields);
  const definitions = new Map(Object.entries(withSyntheticDefinitions(swagger.definitions, messages)));
  const notes: ImportNotes = { droppedProperties: [], skippedProtoFields: [], warnings: [] };
  const ctx: ConvertContext = { definitions, messages, notes, keepProtoOnlyFields: options.keepProtoOnlyFields ?? true };

  const converted = convertClosure([...KINDS, ...SUPPORT_TYPES], ctx);
  const ops = restOperations(swagger);
  const groupsByFolder = new Map<string, string>();
  for (const kind of KINDS) {
    const path = filePathOf(locationOf(kind));
    const entry = converted.get(path)!;
    entry.schema['x-kapi-resource'] = resourceHeader(kind, definitions, ops);
    groupsByFolder.set(entry.location.folder, gvkOf(kind, definitions.get(kind)!).group);
  }

  const files = new Map<string, string>();
  for (const path of [...converted.keys()].sort()) files.set(path, jsonText(canonicalSchema(converted.get(path)!.schema)));
  const folders = [...new Set([...converted.values()].map((c) => c.location.folder))].sort();
  for (const [folder, group] of groupFiles(groupsByFolder, folders)) files.set(`${folder}/group.json`, jsonText(group));

  for (const list of Object.values(notes)) list.sort();
  return { files: new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))), folders, notes };
}
