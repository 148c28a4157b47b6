#!/usr/bin/env node
// prepack guard of the published packages: refuses to pack a package.json that still has `workspace:` ranges.
//
// The packages depend on each other with pnpm's `workspace:^` protocol. pnpm replaces those ranges with the
// versions when it packs or publishes (after prepack, in the tarball), but npm and yarn 1 copy them verbatim, and
// the published package then cannot be installed. Lifecycle scripts run in the package directory, so this reads
// ./package.json of the working directory.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

const file = resolve(process.cwd(), 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));

const leaks = [];
for (const field of FIELDS) {
  for (const [name, range] of Object.entries(pkg[field] ?? {})) {
    if (typeof range === 'string' && range.startsWith('workspace:')) leaks.push(`${field}: "${name}": "${range}"`);
  }
}

// pnpm rewrites workspace: ranges in the tarball it makes, so under pnpm there is nothing to guard.
const underPnpm = (process.env.npm_config_user_agent ?? '').startsWith('pnpm/');

if (leaks.length > 0 && !underPnpm) {
  console.error(
    [
      `prepack-guard: ${pkg.name ?? file} has workspace: ranges that would be published as they are:`,
      ...leaks.map((leak) => `  ${leak}`),
      'Pack and publish with pnpm (`pnpm pack`, `pnpm publish` or `pnpm changeset publish`), which replaces',
      'workspace: ranges with the versions.',
    ].join('\n'),
  );
  process.exit(1);
}
