import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
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

export interface LoadOptions {
  /** Where a folder's package goes when its group.json names no `directory` (relative to the root). Default `packages`. */
  packagesDir?: string;
}

/**
 * Reads every `schemas/<folder>/<version>/<Name>.json` and `schemas/<folder>/group.json` below `schemasDir`. A folder's
 * package goes to its group.json `directory`, else `<packagesDir>/api-<folder>`.
 */
export function loadSchemas(schemasDir: string, options: LoadOptions = {}): SchemaSet {
  const packagesDir = options.packagesDir ?? 'packages';
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
      directory: posix.normalize(declared.directory ?? posix.join(packagesDir, `api-${folder}`)),
      description: declared.description,
      strategicMergePatch: declared.strategicMergePatch === true,
    });
  }
  return { files, groups };
}

/**
 * Adds the folders of `builtin` (the built-in schemas @kapi/codegen ships) that `set` does not have, as external
 * groups: a project's own schemas can refer to their types, which are imported from the published packages
 * (@kapi/apimachinery, @kapi/api-core, ...) rather than generated again.
 */
export function withBuiltinSchemas(set: SchemaSet, builtin: SchemaSet): SchemaSet {
  const files = new Map(set.files);
  const groups = new Map(set.groups);
  for (const [folder, group] of builtin.groups) {
    if (groups.has(folder)) continue;
    groups.set(folder, { ...group, external: true });
    for (const [id, file] of builtin.files) if (file.folder === folder) files.set(id, file);
  }
  return { files, groups };
}
