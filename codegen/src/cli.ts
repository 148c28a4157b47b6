#!/usr/bin/env node
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';
import { loadSchemas } from './model/load.js';
import { findRepoRoot } from './paths.js';
import { writeOutputs } from './writer.js';

const USAGE = `usage: kapi-codegen [generate] [--check] [--root DIR]
       kapi-codegen import-kubernetes [--reference DIR] [--root DIR]

generate            regenerate packages/*/src/generated from schemas/ (the default)
  --check           write nothing; exit 1 and list the files that are stale
import-kubernetes   rewrite schemas/ for the built-in kinds from upstream reference data
  --reference DIR   default: <root>/../shared/reference/kubernetes`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      check: { type: 'boolean', default: false },
      root: { type: 'string' },
      reference: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const root = values.root ?? findRepoRoot(process.env.INIT_CWD ?? process.cwd());
  const command = positionals[0] ?? 'generate';
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
  const outputs = generate(loadSchemas(join(root, 'schemas')));
  const result = writeOutputs(root, outputs, values.check);
  const stale = [...result.changed, ...result.removed.map((p) => `${p} (removed)`)];
  if (values.check) {
    if (stale.length) {
      console.error(`generated code is stale; run \`pnpm codegen\`:\n  ${stale.join('\n  ')}`);
      return 1;
    }
    console.log(`codegen --check: ${outputs.length} files up to date`);
    return 0;
  }
  console.log(`codegen: ${outputs.length} files, ${result.changed.length} written, ${result.removed.length} removed`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`kapi-codegen: ${err.message}`);
    process.exit(1);
  },
);
