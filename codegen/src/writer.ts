import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { OutputFile } from './output.js';

export interface WriteResult {
  /** Files written (or, in check mode, that would be written), relative to the root. */
  changed: string[];
  /** Stale generated files removed (or that would be removed). */
  removed: string[];
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * The one writer: writes outputs under `root`, skips scaffold files that exist, and deletes files in any
 * `src/generated/` directory it writes to that the generator no longer produces. With `check`, writes nothing.
 */
export function writeOutputs(root: string, outputs: OutputFile[], check = false): WriteResult {
  const changed: string[] = [];
  const removed: string[] = [];
  const generatedDirs = new Set<string>();
  const wanted = new Set(outputs.map((o) => o.path));
  for (const file of outputs) {
    // A group.json `directory` names a place inside the project; generated files never go anywhere else.
    if (isAbsolute(file.path) || file.path === '..' || file.path.startsWith('../') || file.path.split('/').includes('node_modules')) {
      throw new Error(`${file.path}: outside the project ${root}; a group.json "directory" is relative to the project root and inside it`);
    }
    const path = join(root, file.path);
    // A package at the root itself (`"directory": "."`) has its generated files at src/generated/ directly.
    const marker = `/${file.path}`.indexOf('/src/generated/');
    if (marker >= 0) generatedDirs.add(file.path.slice(0, marker + 'src/generated'.length));
    const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    let content = file.content;
    if (file.scaffold && existing !== undefined) {
      if (!file.amend) continue;
      content = file.amend(existing);
    }
    if (existing === content) continue;
    changed.push(file.path);
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
  }
  for (const dir of generatedDirs) {
    for (const path of walk(join(root, dir))) {
      const rel = relative(root, path).split('\\').join('/');
      if (wanted.has(rel)) continue;
      removed.push(rel);
      if (!check) rmSync(path);
    }
  }
  return { changed: changed.sort(), removed: removed.sort() };
}
