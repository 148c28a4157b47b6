import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes the imported files under `schemasDir`. Files whose bytes are unchanged are left alone, and `.json`
 * files in the imported `<folder>/<version>/` directories that the import no longer produces are removed.
 * Nothing outside the imported folders (README.md, hand-written groups) is touched.
 * Returns the absolute paths of all imported files.
 */
export async function writeSchemaFiles(schemasDir: string, files: Map<string, string>, folders: string[]): Promise<string[]> {
  const written: string[] = [];
  for (const [path, content] of files) {
    const target = join(schemasDir, path);
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current !== content) {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    written.push(target);
  }
  for (const folder of folders) {
    const folderDir = join(schemasDir, folder);
    for (const version of await readdir(folderDir, { withFileTypes: true })) {
      if (!version.isDirectory()) continue;
      for (const name of await readdir(join(folderDir, version.name))) {
        if (name.endsWith('.json') && !files.has(`${folder}/${version.name}/${name}`)) {
          await rm(join(folderDir, version.name, name));
        }
      }
    }
  }
  return written;
}
