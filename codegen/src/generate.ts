import { posix } from 'node:path';
import { buildModel } from './model/graph.js';
import type { SchemaSet } from './model/schema.js';
import type { OutputFile } from './output.js';
import { dependencyPackages, packageContext } from './emit/context.js';
import { emitTypes } from './emit/typescript.js';
import { emitDescriptor } from './emit/descriptor.js';
import { emitValidators } from './emit/validators.js';
import { emitFieldTree } from './emit/field-tree.js';
import { emitResources } from './emit/resources.js';
import { emitIndex, emitScaffold } from './emit/package.js';
import { emitOpenAPI } from './emit/openapi.js';
import { emitConversions } from './emit/conversions.js';
import { emitClient } from './emit/client.js';

export interface GenerateOptions {
  /** Version ranges written into new packages' dependencies. Default `workspace:^` (this repository's workspace). */
  dependencyVersions?: { apimachinery: string; groups?: string };
  /**
   * New packages get a tsconfig of their own instead of one extending the repository's `tsconfig.base.json`: for
   * projects outside this repository. Default false.
   */
  standalone?: boolean;
}

/** Every file generated from a schema set: a pure function of its input, so two runs give identical bytes. */
export function generate(set: SchemaSet, options: GenerateOptions = {}): OutputFile[] {
  const model = buildModel(set);
  const versions = options.dependencyVersions ?? { apimachinery: 'workspace:^' };
  const done = new Set<string>();
  const out: OutputFile[] = [];
  const graph = new Map<string, string[]>();
  for (const [folder, group] of set.groups) {
    // The built-in groups of a project outside this repository come from their published packages.
    if (group.external) continue;
    const ctx = packageContext(model, folder);
    if (done.has(ctx.packageName)) continue;
    done.add(ctx.packageName);
    graph.set(ctx.packageName, dependencyPackages(ctx));
    out.push(
      ...emitTypes(ctx),
      emitDescriptor(ctx),
      ...emitValidators(ctx),
      emitFieldTree(ctx),
      emitResources(ctx),
      ...emitConversions(ctx),
      emitOpenAPI(ctx),
      ...emitIndex(ctx),
      ...emitClient(ctx),
      ...emitScaffold(ctx, versions, options.standalone ?? false),
    );
  }
  checkAcyclic(graph);
  // A package in the root itself (`"directory": "."`) writes `./src/...`: every path is normalized.
  return out.map((file) => ({ ...file, path: posix.normalize(file.path) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Packages import the types they share from the package that owns them, so their references must form no cycle
 * (pnpm and turbo could not order the builds): a cycle is an error naming it.
 */
function checkAcyclic(graph: Map<string, string[]>): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (pkg: string, path: string[]) => {
    if (state.get(pkg) === 'done') return;
    if (state.get(pkg) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(pkg)), pkg];
      throw new Error(`schemas refer to each other in a cycle of packages: ${cycle.join(' -> ')}; move the shared types into one group`);
    }
    state.set(pkg, 'visiting');
    for (const dep of graph.get(pkg) ?? []) visit(dep, [...path, pkg]);
    state.set(pkg, 'done');
  };
  for (const pkg of [...graph.keys()].sort()) visit(pkg, []);
}
