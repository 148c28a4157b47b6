import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRepoRoot, loadSchemas, buildModel, type Model } from '@kapi/codegen';
import type { GroupDefinition } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';

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
  return (await loadDataPlugins(model)).map((p) => p.definition);
}

/**
 * Every generated group package as a plugin without the behaviour of its kinds (no strategies, printers or
 * controllers), but with what serving it needs: the conversions of kinds served in several versions, from the
 * package's `plugin` where the generated definition has none (hand-written hooks), and the kinds stored with another
 * group's resource (events.k8s.io Events in core's `events`) with their conversions.
 */
export async function loadDataPlugins(model: Model = repoModel()): Promise<GroupPlugin[]> {
  const groups: GroupPlugin[] = [];
  const seen = new Set<string>();
  for (const g of model.set.groups.values()) {
    if (g.packageName === '@kapi/apimachinery' || seen.has(g.packageName)) continue;
    seen.add(g.packageName);
    const entry = pathToFileURL(join(repoRoot, g.directory, 'dist', 'index.js')).href;
    const mod = (await import(entry)) as { group: GroupDefinition; plugin?: Pick<GroupPlugin, 'conversions' | 'storedAs'> };
    groups.push({ definition: mod.group, conversions: mod.plugin?.conversions, ...(mod.plugin?.storedAs ? { storedAs: mod.plugin.storedAs } : {}) });
  }
  return groups;
}
