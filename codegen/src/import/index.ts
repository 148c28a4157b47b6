import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildKubernetesSchemas } from './build.js';
import type { ImportNotes, ProtoMessages, SwaggerDocument } from './types.js';
import { writeSchemaFiles } from './write.js';

export { buildKubernetesSchemas, type ImportResult } from './build.js';
export type { ImportNotes } from './types.js';

export interface ImportKubernetesOptions {
  /** Directory with upstream's `swagger.json` and `protobuf-fields.json`. */
  referenceDir: string;
  /** The repository's `schemas/` directory. */
  schemasDir: string;
  /** Receives the import's findings (properties without Protobuf fields, mismatches), one line each. */
  log?: (line: string) => void;
  /** See `ConvertContext.keepProtoOnlyFields`; on by default (upstream fixtures carry those fields). */
  keepProtoOnlyFields?: boolean;
}

/**
 * `pnpm codegen import-kubernetes`: (re)writes the built-in Kubernetes groups under `schemasDir` from the
 * upstream reference data. Deterministic; hand-written files are never touched. Returns the absolute paths of
 * the imported files.
 */
export async function importKubernetes(options: ImportKubernetesOptions): Promise<string[]> {
  const [swagger, protoFields] = await Promise.all([
    readFile(join(options.referenceDir, 'swagger.json'), 'utf8').then((t) => JSON.parse(t) as SwaggerDocument),
    readFile(join(options.referenceDir, 'protobuf-fields.json'), 'utf8').then((t) => JSON.parse(t) as ProtoMessages),
  ]);
  const result = buildKubernetesSchemas(swagger, protoFields, { keepProtoOnlyFields: options.keepProtoOnlyFields });
  if (options.log) logNotes(result.notes, options.log);
  return writeSchemaFiles(options.schemasDir, result.files, result.folders);
}

function logNotes(notes: ImportNotes, log: (line: string) => void): void {
  for (const p of notes.droppedProperties) log(`dropped (no Protobuf field): ${p}`);
  for (const w of notes.warnings) log(`warning: ${w}`);
}
