import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import type { SchemaSet } from './schema.js';

/**
 * Checks the groups of `set` that are generated (not the built-in ones of a project) before anything is written:
 * every schema file and group.json against codegen's meta-schema (names, plurals, scopes, verbs, versions, group
 * names and directories as kube's CRD validation checks them), and every resource header against the file's place
 * (kind = file name, version = folder, group = the folder's group). Throws one error listing every problem.
 */
export function checkSchemas(set: SchemaSet, groupFiles: ReadonlyMap<string, unknown>, metaSchema: object = loadMetaSchema()): void {
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  ajv.addSchema(metaSchema as object);
  const id = (metaSchema as { $id: string }).$id;
  const validateFile = ajv.getSchema(id)!;
  const validateGroup = ajv.getSchema(`${id}#/definitions/groupFile`)!;
  const problems: string[] = [];
  const report = (where: string, errors: typeof validateFile.errors) => {
    for (const e of errors ?? []) problems.push(`${where}${e.instancePath}: ${e.message}${e.params && 'pattern' in e.params ? '' : ` ${JSON.stringify(e.params)}`}`);
  };
  for (const [folder, content] of groupFiles) {
    if (set.groups.get(folder)?.external) continue;
    if (!validateGroup(content)) report(`schemas/${folder}/group.json`, validateGroup.errors);
  }
  for (const file of set.files.values()) {
    const group = set.groups.get(file.folder)!;
    if (group.external) continue;
    const where = `schemas/${file.id}.json`;
    if (!validateFile(file.schema)) report(where, validateFile.errors);
    const header = file.schema['x-kapi-resource'];
    if (!header) continue;
    if (header.kind !== file.name) problems.push(`${where}: x-kapi-resource kind ${JSON.stringify(header.kind)} is not the file's name ${file.name}`);
    if (header.version !== file.version) problems.push(`${where}: x-kapi-resource version ${JSON.stringify(header.version)} is not the folder's ${file.version}`);
    if (header.group !== group.group) problems.push(`${where}: x-kapi-resource group ${JSON.stringify(header.group)} is not the folder's group ${JSON.stringify(group.group)}`);
  }
  if (problems.length) {
    const shown = problems.slice(0, 20);
    throw new Error(`invalid schemas:\n  ${shown.join('\n  ')}${problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : ''}`);
  }
}

/** codegen/meta-schema.json: beside dist/ in the package, two levels above src/model/ in the repository. */
function loadMetaSchema(): object {
  const found = ['../meta-schema.json', '../../meta-schema.json'].map((p) => fileURLToPath(new URL(p, import.meta.url))).find((p) => existsSync(p));
  if (!found) throw new Error('meta-schema.json is missing from @kapi/codegen');
  return JSON.parse(readFileSync(found, 'utf8'));
}
