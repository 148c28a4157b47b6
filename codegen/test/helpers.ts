import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '../src/paths.js';

export const here = dirname(fileURLToPath(import.meta.url));
export const codegenDir = join(here, '..');
export const repoRoot = findRepoRoot(here);
export const fixtureSchemas = join(here, 'fixtures', 'schemas');

/**
 * A scratch repository under codegen/.tmp (git-ignored): inside the workspace, so generated code that imports
 * @kapi/apimachinery resolves it through codegen's node_modules.
 */
export function scratchRepo(schemas: string): { root: string; dispose(): void } {
  const base = join(codegenDir, '.tmp');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'repo-'));
  cpSync(schemas, join(root, 'schemas'), { recursive: true });
  writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
  cpSync(join(repoRoot, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
