import { posix } from 'node:path';
import { GENERATED_HEADER, type OutputFile } from '../output.js';
import { conversionNeeds } from './conversions.js';
import { APIMACHINERY, dependencyPackages, groupDependencies, ownKinds, type PackageContext } from './context.js';

/**
 * The dependencies a group package needs: @kapi/apimachinery, and the packages owning the types it refers to. Outside
 * this repository (`local`), a package generated from the same schemas is depended on by its path (`file:../extras`),
 * never by a version the public registry could answer with someone else's package.
 */
function dependencies(ctx: PackageContext, versions: { apimachinery: string; groups?: string }, local = false): Record<string, string> {
  const generatedDirectory = (name: string) => [...ctx.model.set.groups.values()].find((g) => g.packageName === name && !g.external)?.directory;
  return Object.fromEntries(
    dependencyPackages(ctx).map((p) => {
      const dir = local ? generatedDirectory(p) : undefined;
      const path = dir === undefined ? undefined : posix.relative(ctx.directory, dir);
      if (path !== undefined) return [p, `file:${path.startsWith('.') ? path : `./${path}`}`];
      return [p, p === APIMACHINERY ? versions.apimachinery : versions.groups ?? versions.apimachinery];
    }),
  );
}

/**
 * A hand-kept package.json with the generated dependencies added where missing (versions already there are the
 * author's and stay), and, with `prune`, those on group packages the schemas no longer refer to removed (in this
 * repository; a project's own code may use a group its schemas do not refer to).
 */
function withDependencies(existing: string, wanted: Record<string, string>, prune: boolean): string {
  const pkg = JSON.parse(existing) as { dependencies?: Record<string, string> };
  const deps: Record<string, string> = {};
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (prune && name.startsWith('@kapi/api-') && !(name in wanted)) continue;
    deps[name] = range;
  }
  for (const [name, range] of Object.entries(wanted)) deps[name] ??= range;
  pkg.dependencies = Object.fromEntries(Object.keys(deps).sort().map((k) => [k, deps[k]]));
  return JSON.stringify(pkg, null, 2) + '\n';
}

/** The package barrel of `src/generated/`, and for group packages the group definition a server installs. */
export function emitIndex(ctx: PackageContext): OutputFile[] {
  const lines = [
    `export type * from './types.js';`,
    `export { ajvSchemas } from './ajv-schemas.js';`,
    `export { descriptor } from './descriptor.js';`,
    `export { fieldTree } from './field-tree.js';`,
    `export { openapi } from './openapi.js';`,
    `export { resources } from './resources.js';`,
    `export { validators } from './validators.js';`,
  ];
  const out: OutputFile[] = [];
  if (!ctx.isApimachinery) {
    lines.push(`export { group } from './group.js';`);
    const conversion = conversionNeeds(ctx);
    if (conversion.hooks) lines.push(`export { createConversions, type ConversionHooks } from './conversions.js';`);
    else if (conversion.any) lines.push(`export { conversions } from './conversions.js';`);
    // Installed with the definition when no hand-written hook is needed; otherwise the group's plugin brings them.
    const ownConversions = conversion.any && !conversion.hooks;
    const g = ctx.model.group(ctx.folders[0]);
    const versions = [...new Set(ownKinds(ctx).map((f) => f.version))].sort();
    // The group's descriptor and field tree are its own merged with those of the packages whose types it uses.
    const deps = groupDependencies(ctx);
    const depNames = deps.map((p) => [p, `${p.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase())}Group`] as const);
    const imports = [
      `import { mergeDescriptors, mergeFieldTrees, mergeOpenAPI, metaDescriptor, metaFieldTree, metaOpenAPI, type GroupDefinition } from '@kapi/apimachinery';`,
      ...depNames.map(([p, name]) => `import { group as ${name} } from '${p}';`),
      `import { descriptor } from './descriptor.js';`,
      `import { fieldTree } from './field-tree.js';`,
      `import { openapi } from './openapi.js';`,
      `import { resources } from './resources.js';`,
      `import { typeValidators, validators } from './validators.js';`,
      ...(ownConversions ? [`import { conversions } from './conversions.js';`] : []),
    ];
    const uses = (what: string, meta: string) => `[${[what, meta, ...depNames.map(([, n]) => `${n}.${what === 'descriptor' ? 'protobuf' : what}`)].join(', ')}]`;
    const depOpenAPI = `[${['openapi', 'metaOpenAPI', ...depNames.map(([, n]) => `${n}.openapi!`)].join(', ')}]`;
    out.push({
      path: `${ctx.directory}/src/generated/group.ts`,
      content:
        `${GENERATED_HEADER}\n${imports.join('\n')}\n\n` +
        `// Merged with those of the packages whose types the group uses on first use: loading a group costs little.\n` +
        `const merged: Partial<Pick<GroupDefinition, 'fieldTree' | 'protobuf' | 'openapi'>> = {};\n\n` +
        `/** The ${g.group || 'core'} API group as generated from schemas/${ctx.folders[0]}/: install it into a server. */\n` +
        `export const group: GroupDefinition = {\n` +
        `  group: ${JSON.stringify(g.group)},\n  packageName: ${JSON.stringify(ctx.packageName)},\n` +
        `  versions: ${JSON.stringify(versions)},\n  strategicMergePatch: ${g.strategicMergePatch},\n  resources,\n  validators,\n  typeValidators,\n` +
        (ownConversions ? `  conversions,\n` : '') +
        `  get fieldTree() {\n    return (merged.fieldTree ??= mergeFieldTrees(${uses('fieldTree', 'metaFieldTree')}));\n  },\n` +
        `  get protobuf() {\n    return (merged.protobuf ??= mergeDescriptors(${uses('descriptor', 'metaDescriptor')}));\n  },\n` +
        `  get openapi() {\n    return (merged.openapi ??= mergeOpenAPI(${depOpenAPI}));\n  },\n};\n`,
    });
  }
  out.push({ path: `${ctx.directory}/src/generated/index.ts`, content: `${GENERATED_HEADER}\n${lines.join('\n')}\n` });
  return out;
}

/** The tsconfig of a new package outside this repository: what tsconfig.base.json sets, on its own. */
export const STANDALONE_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    isolatedModules: true,
    declaration: true,
    noEmit: true,
    forceConsistentCasingInFileNames: true,
  },
  include: ['src'],
};

/** The build tools of a new package outside this repository (what this repository's root provides). */
export const STANDALONE_DEV_DEPENDENCIES = { '@types/node': '^20.19.0', tsup: '^8.5.0', typescript: '^6.0.3' };

/**
 * A new group package's hand-editable files: written once when missing, never overwritten, so a group can add
 * strategies and its own code beside the generated part.
 */
export function emitScaffold(ctx: PackageContext, versions: { apimachinery: string; groups?: string }, standalone = false): OutputFile[] {
  if (ctx.isApimachinery) return [];
  const g = ctx.model.group(ctx.folders[0]);
  const dir = ctx.directory;
  const depth = dir === '.' ? 0 : dir.split('/').length;
  const up = '../'.repeat(depth);
  const tsconfig = standalone ? STANDALONE_TSCONFIG : { extends: `${up}tsconfig.base.json`, include: ['src'] };
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
      './client': {
        import: { types: './dist/client.d.ts', default: './dist/client.js' },
        require: { types: './dist/client.d.cts', default: './dist/client.cjs' },
      },
      './package.json': './package.json',
    },
    // The ./client entry for TypeScript's node10 resolution, which does not read exports.
    typesVersions: { '*': { client: ['./dist/client.d.ts'] } },
    files: ['dist'],
    sideEffects: false,
    scripts: {
      build: 'tsup',
      typecheck: 'tsc -p tsconfig.json',
      lint: 'tsc -p tsconfig.json',
    },
    dependencies: dependencies(ctx, versions, standalone),
    // Outside this repository a package brings its own build tools.
    ...(standalone ? { devDependencies: STANDALONE_DEV_DEPENDENCIES } : {}),
  };
  return [
    {
      path: `${dir}/package.json`,
      content: JSON.stringify(pkg, null, 2) + '\n',
      scaffold: true,
      amend: (existing) => withDependencies(existing, dependencies(ctx, versions, standalone), !standalone),
    },
    {
      path: `${dir}/tsconfig.json`,
      content: JSON.stringify(tsconfig, null, 2) + '\n',
      scaffold: true,
    },
    {
      path: `${dir}/tsup.config.ts`,
      content:
        `import { defineConfig } from 'tsup';\n\nexport default defineConfig({\n  entry: { index: 'src/index.ts', client: 'src/generated/client.ts' },\n` +
        `  format: ['esm', 'cjs'],\n  dts: true,\n  sourcemap: true,\n  clean: true,\n  target: 'node20',\n});\n`,
      scaffold: true,
    },
    {
      path: `${dir}/src/index.ts`,
      content:
        `// The ${g.group || 'core'} group package. Everything under ./generated comes from schemas/${ctx.folders[0]}/;\n` +
        `// add the hand-written behaviour of its kinds under ./registry and export it as \`plugin\` (docs/building-a-server.md).\n` +
        `export * from './generated/index.js';\n`,
      scaffold: true,
    },
  ];
}
