import { buildModel } from './model/graph.js';
import type { SchemaSet } from './model/schema.js';
import type { OutputFile } from './output.js';
import { packageContext } from './emit/context.js';
import { emitTypes } from './emit/typescript.js';
import { emitDescriptor } from './emit/descriptor.js';
import { emitValidators } from './emit/validators.js';
import { emitFieldTree } from './emit/field-tree.js';
import { emitResources } from './emit/resources.js';
import { emitIndex, emitScaffold } from './emit/package.js';
import { emitOpenAPI } from './emit/openapi.js';

export interface GenerateOptions {
  /** Version ranges written into new packages' dependencies. */
  dependencyVersions?: { apimachinery: string };
}

/** Every file generated from a schema set: a pure function of its input, so two runs give identical bytes. */
export function generate(set: SchemaSet, options: GenerateOptions = {}): OutputFile[] {
  const model = buildModel(set);
  const versions = options.dependencyVersions ?? { apimachinery: 'workspace:^' };
  const done = new Set<string>();
  const out: OutputFile[] = [];
  for (const folder of set.groups.keys()) {
    const ctx = packageContext(model, folder);
    if (done.has(ctx.packageName)) continue;
    done.add(ctx.packageName);
    out.push(
      ...emitTypes(ctx),
      emitDescriptor(ctx),
      ...emitValidators(ctx),
      emitFieldTree(ctx),
      emitResources(ctx),
      ...(ctx.isApimachinery ? [] : [emitOpenAPI(ctx)]),
      ...emitIndex(ctx),
      ...emitScaffold(ctx, versions),
    );
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
