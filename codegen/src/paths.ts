import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Finds the repository root: the nearest directory upward holding pnpm-workspace.yaml. */
export function findRepoRoot(start: string = process.cwd()): string {
  const found = findUp(start, 'pnpm-workspace.yaml');
  if (!found) throw new Error(`no pnpm-workspace.yaml above ${start}`);
  return found;
}

/**
 * Finds a project's root: the nearest directory upward holding pnpm-workspace.yaml (a workspace), else the nearest
 * holding package.json, else `start` itself.
 */
export function findProjectRoot(start: string = process.cwd()): string {
  return findUp(start, 'pnpm-workspace.yaml') ?? findUp(start, 'package.json') ?? resolve(start);
}

function findUp(start: string, file: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, file))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
