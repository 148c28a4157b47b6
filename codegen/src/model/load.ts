import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GroupFolder, SchemaFile, SchemaNode, SchemaSet } from './schema.js';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function listDirs(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
    .sort(byName);
}

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

/** Reads every `schemas/<folder>/<version>/<Name>.json` and `schemas/<folder>/group.json` below `schemasDir`. */
export function loadSchemas(schemasDir: string): SchemaSet {
  const files = new Map<string, SchemaFile>();
  const groups = new Map<string, GroupFolder>();
  for (const folder of listDirs(schemasDir)) {
    const folderDir = join(schemasDir, folder);
    const groupFile = join(folderDir, 'group.json');
    const declared = existsSync(groupFile) ? readJson<Partial<GroupFolder> & { package?: string }>(groupFile) : {};
    let headerGroup: string | undefined;
    for (const version of listDirs(folderDir)) {
      const versionDir = join(folderDir, version);
      for (const fileName of readdirSync(versionDir).filter((f) => f.endsWith('.json')).sort(byName)) {
        const name = fileName.slice(0, -'.json'.length);
        // The name becomes a TypeScript and Protobuf identifier.
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          throw new Error(`${join(versionDir, fileName)}: a schema file name must be an identifier ([A-Za-z_][A-Za-z0-9_]*)`);
        }
        const schema = readJson<SchemaNode>(join(versionDir, fileName));
        headerGroup ??= schema['x-kapi-resource']?.group;
        const id = `${folder}/${version}/${name}`;
        files.set(id, { id, folder, version, name, schema });
      }
    }
    groups.set(folder, {
      folder,
      group: declared.group ?? headerGroup ?? (folder === 'core' ? '' : folder),
      packageName: declared.package ?? `@kapi/api-${folder}`,
      directory: declared.directory ?? `packages/api-${folder}`,
      description: declared.description,
      strategicMergePatch: declared.strategicMergePatch === true,
    });
  }
  return { files, groups };
}
