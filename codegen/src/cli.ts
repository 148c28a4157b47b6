#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';
import { initProject } from './init.js';
import { checkSchemas } from './model/check.js';
import { loadSchemas, withBuiltinSchemas } from './model/load.js';
import { findProjectRoot } from './paths.js';
import { writeOutputs } from './writer.js';

const USAGE = `usage: kapi-codegen [generate] [--schemas DIR] [--out DIR] [--root DIR] [--check]
       kapi-codegen init [DIR] [--group GROUP] [--kind KIND]
       kapi-codegen import-kubernetes [--reference DIR] [--root DIR]

generate            generate one package per folder of the schemas directory (the default)
  --root DIR        the project: the nearest directory upward with pnpm-workspace.yaml or package.json
  --schemas DIR     default: <root>/schemas
  --out DIR         where a folder's package goes unless its group.json names a "directory": <out>/api-<folder>
                    (default: <root>/packages)
  --check           write nothing; exit 1 and list the files that are stale
                    Schemas may $ref the built-in types by id ("kapi:meta/v1/ObjectMeta", "kapi:core/v1/PodSpec"):
                    they ship with kapi-codegen and are imported from @kapi/apimachinery, @kapi/api-core, ...
init                write a minimal project into DIR (default .): a group with one kind, a server, a test
  --group GROUP     default widgets.example.com
  --kind KIND       default Widget
import-kubernetes   rewrite schemas/ for the built-in kinds from upstream reference data (Kapi's own repository)
  --reference DIR   default: <root>/../shared/reference/kubernetes`;

/** The built-in schemas shipped in this package (copied from the repository's schemas/ at build time). */
const BUILTIN_SCHEMAS = fileURLToPath(new URL('./schemas/', import.meta.url));

/** The group.json of each folder that has one, parsed. */
function groupFiles(schemasDir: string, folders: string[]): Map<string, unknown> {
  const files = new Map<string, unknown>();
  for (const folder of folders) {
    const path = join(schemasDir, folder, 'group.json');
    if (existsSync(path)) files.set(folder, JSON.parse(readFileSync(path, 'utf8')));
  }
  return files;
}

function ownVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      check: { type: 'boolean', default: false },
      root: { type: 'string' },
      schemas: { type: 'string' },
      out: { type: 'string' },
      group: { type: 'string' },
      kind: { type: 'string' },
      reference: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const command = positionals[0] ?? 'generate';
  if (command === 'init') {
    const directory = resolve(cwd, positionals[1] ?? '.');
    const result = initProject({ directory, group: values.group, kind: values.kind, kapiVersion: `^${ownVersion()}` });
    for (const file of result.written) console.log(`wrote ${file}`);
    for (const file of result.kept) console.log(`kept ${file} (exists)`);
    const cd = relative(cwd, directory);
    console.log(`\nnext:\n${cd ? `  cd ${cd}\n` : ''}  npm install\n  npm start`);
    return 0;
  }
  const root = values.root ? resolve(cwd, values.root) : findProjectRoot(cwd);
  if (command === 'import-kubernetes') {
    const importer = './import/index.js';
    const { importKubernetes } = (await import(importer)) as typeof import('./import/index.js');
    const referenceDir = values.reference ?? join(root, '..', 'shared', 'reference', 'kubernetes');
    const written = await importKubernetes({ referenceDir, schemasDir: join(root, 'schemas') });
    console.log(`import-kubernetes: ${written.length} schema files written to schemas/`);
    return 0;
  }
  if (command !== 'generate') {
    console.error(`unknown command ${command}\n${USAGE}`);
    return 2;
  }
  const schemasDir = values.schemas ? resolve(cwd, values.schemas) : join(root, 'schemas');
  if (!existsSync(schemasDir)) throw new Error(`no schemas directory ${schemasDir} (--schemas DIR, or \`kapi-codegen init\` to start a project)`);
  const out = values.out ? resolve(cwd, values.out) : join(root, 'packages');
  const packagesDir = relative(root, out).split('\\').join('/') || '.';
  if (isAbsolute(packagesDir) || packagesDir.startsWith('..')) throw new Error(`--out ${values.out} is outside the project ${root}`);
  const own = loadSchemas(schemasDir, { packagesDir });
  // Kapi's own repository has every built-in group in schemas/ and generates them all; a project has its groups
  // only, refers to the built-in ones, and depends on their published packages.
  const project = !own.groups.has('meta');
  const set = project ? withBuiltinSchemas(own, loadSchemas(BUILTIN_SCHEMAS)) : own;
  checkSchemas(set, groupFiles(schemasDir, [...own.groups.keys()]));
  const version = `^${ownVersion()}`;
  const outputs = generate(set, project ? { dependencyVersions: { apimachinery: version }, standalone: true } : {});
  const result = writeOutputs(root, outputs, values.check);
  const stale = [...result.changed, ...result.removed.map((p) => `${p} (removed)`)];
  if (values.check) {
    if (stale.length) {
      console.error(`generated code is stale; run \`${project ? 'kapi-codegen generate' : 'pnpm codegen'}\`:\n  ${stale.join('\n  ')}`);
      return 1;
    }
    console.log(`codegen --check: ${outputs.length} files up to date`);
    return 0;
  }
  console.log(`codegen: ${outputs.length} files, ${result.changed.length} written, ${result.removed.length} removed`);
  const manifests = result.changed.filter((p) => p === 'package.json' || p.endsWith('/package.json'));
  if (project && manifests.length) console.log(`dependencies changed in ${manifests.join(', ')}: run \`npm install\``);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`kapi-codegen: ${err.message}`);
    process.exit(1);
  },
);
