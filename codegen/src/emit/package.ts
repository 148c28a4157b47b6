import { GENERATED_HEADER, type OutputFile } from '../output.js';
import { ownKinds, type PackageContext } from './context.js';

/** The package barrel of `src/generated/`, and for group packages the group definition a server installs. */
export function emitIndex(ctx: PackageContext): OutputFile[] {
  const lines = [
    `export type * from './types.js';`,
    `export { descriptor } from './descriptor.js';`,
    `export { fieldTree } from './field-tree.js';`,
    `export { resources } from './resources.js';`,
    `export { validators } from './validators.js';`,
  ];
  const out: OutputFile[] = [];
  if (!ctx.isApimachinery) {
    lines.push(`export { group } from './group.js';`, `export { openapi } from './openapi.js';`);
    const g = ctx.model.group(ctx.folders[0]);
    const versions = [...new Set(ownKinds(ctx).map((f) => f.version))].sort();
    out.push({
      path: `${ctx.directory}/src/generated/group.ts`,
      content:
        `${GENERATED_HEADER}\nimport type { GroupDefinition } from '@kapi/apimachinery';\n` +
        `import { descriptor } from './descriptor.js';\nimport { fieldTree } from './field-tree.js';\n` +
        `import { openapi } from './openapi.js';\nimport { resources } from './resources.js';\nimport { validators } from './validators.js';\n\n` +
        `/** The ${g.group || 'core'} API group as generated from schemas/${ctx.folders[0]}/: install it into a server. */\n` +
        `export const group: GroupDefinition = {\n` +
        `  group: ${JSON.stringify(g.group)},\n  packageName: ${JSON.stringify(ctx.packageName)},\n` +
        `  versions: ${JSON.stringify(versions)},\n  strategicMergePatch: ${g.strategicMergePatch},\n  resources,\n  validators,\n  fieldTree,\n  protobuf: descriptor,\n  openapi,\n};\n`,
    });
  }
  out.push({ path: `${ctx.directory}/src/generated/index.ts`, content: `${GENERATED_HEADER}\n${lines.join('\n')}\n` });
  return out;
}

/**
 * A new group package's hand-editable files: written once when missing, never overwritten, so a group can add
 * strategies and its own code beside the generated part.
 */
export function emitScaffold(ctx: PackageContext, versions: { apimachinery: string }): OutputFile[] {
  if (ctx.isApimachinery) return [];
  const g = ctx.model.group(ctx.folders[0]);
  const dir = ctx.directory;
  const depth = dir.split('/').length;
  const up = '../'.repeat(depth);
  const pkg = {
    name: ctx.packageName,
    version: '0.0.0',
    description: g.description ?? `Kapi API group ${g.group || 'core'}: typed kinds, validators and Protobuf descriptors`,
    license: 'Apache-2.0',
    type: 'module',
    engines: { node: '>=20.19' },
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': {
        import: { types: './dist/index.d.ts', default: './dist/index.js' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
      },
      './package.json': './package.json',
    },
    files: ['dist'],
    sideEffects: false,
    scripts: {
      build: 'tsup',
      typecheck: 'tsc -p tsconfig.json',
      lint: 'tsc -p tsconfig.json',
    },
    dependencies: { '@kapi/apimachinery': versions.apimachinery },
  };
  return [
    { path: `${dir}/package.json`, content: JSON.stringify(pkg, null, 2) + '\n', scaffold: true },
    {
      path: `${dir}/tsconfig.json`,
      content: JSON.stringify({ extends: `${up}tsconfig.base.json`, include: ['src'] }, null, 2) + '\n',
      scaffold: true,
    },
    {
      path: `${dir}/tsup.config.ts`,
      content:
        `import { defineConfig } from 'tsup';\n\nexport default defineConfig({\n  entry: ['src/index.ts'],\n` +
        `  format: ['esm', 'cjs'],\n  dts: true,\n  sourcemap: true,\n  clean: true,\n  target: 'node20',\n});\n`,
      scaffold: true,
    },
    {
      path: `${dir}/src/index.ts`,
      content:
        `// The ${g.group || 'core'} group package. Everything under ./generated comes from schemas/${ctx.folders[0]}/;\n` +
        `// add hand-written strategies and helpers beside it, in this directory.\n` +
        `export * from './generated/index.js';\n`,
      scaffold: true,
    },
  ];
}
