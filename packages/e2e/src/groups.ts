import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRepoRoot, loadSchemas, buildModel, type Model } from '@kapi/codegen';
import type { GroupDefinition } from '@kapi/apimachinery';

export const repoRoot = findRepoRoot(import.meta.dirname);

/** The schema model of the repository's `schemas/`. */
export function repoModel(): Model {
  return buildModel(loadSchemas(join(repoRoot, 'schemas')));
}

/**
 * Every generated group package, loaded from its build output. Found through `schemas/` rather than a fixed list,
 * so a group added by dropping in schemas is tested without edits here.
 */
export async function loadGroups(model: Model = repoModel()): Promise<GroupDefinition[]> {
  const groups: GroupDefinition[] = [];
  const seen = new Set<string>();
  for (const g of model.set.groups.values()) {
    if (g.packageName === '@kapi/apimachinery' || seen.has(g.packageName)) continue;
    seen.add(g.packageName);
    const entry = pathToFileURL(join(repoRoot, g.directory, 'dist', 'index.js')).href;
    const mod = (await import(entry)) as { group: GroupDefinition };
    groups.push(mod.group);
  }
  return groups;
}
