import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AjvValidateFunction } from './ajv.js';

/**
 * A process-wide cache of compiled validators on disk. Compiling a kind's validator is the costliest part of its first
 * request in a process (ajv generates and compiles JavaScript: about 20 ms for a Namespace, 120 ms for a Pod in a
 * fresh process); loading the same code from a file takes 1-10 ms. The directory is the caller's (a test harness's
 * cache directory, a server's data directory); a file is named by a hash of everything its code was made from (the
 * schemas reachable from the validator's root, the options, ajv's version), so a changed schema gets a new file and
 * never an old validator. A file is used only when it is a regular file of this user that nobody else may read or
 * write (it holds code this process runs); anything else is ignored and replaced.
 */
let cacheDir: string | undefined;

/** Turns the cache on in `dir` (made with mode 0700 when missing), or off with `undefined`. */
export function setValidatorCache(dir: string | undefined): void {
  cacheDir = dir;
}

/** The cache directory in use, if any. */
export function validatorCacheDir(): string | undefined {
  return cacheDir;
}

const nodeRequire = createRequire(import.meta.url);
const AJV_VERSION = (nodeRequire('ajv/package.json') as { version: string }).version;
/** Bumped when the way code is generated or loaded changes, so that files written before are not used. */
const FORMAT = 1;

/** The file name for a validator made from `parts` (root id, options, the schemas it reaches, in a fixed order). */
export function validatorCacheKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify([FORMAT, AJV_VERSION, ...parts])).digest('hex').slice(0, 40);
}

/** Standalone code may require ajv's run-time helpers, and nothing else. */
function runtimeRequire(id: string): unknown {
  if (!/^ajv\/dist\/runtime\/[a-z0-9_]+$/i.test(id)) throw new Error(`cached validator requires ${id}`);
  return nodeRequire(id);
}

/** The cached validator for `key`, when the cache is on and holds a usable file. */
export function readCachedValidator(key: string): AjvValidateFunction | undefined {
  if (!cacheDir) return undefined;
  const file = join(cacheDir, `${key}.js`);
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || (stat.mode & 0o077) !== 0 || (process.getuid && stat.uid !== process.getuid())) return undefined;
    const module = { exports: {} as unknown };
    new Function('require', 'module', 'exports', readFileSync(file, 'utf8'))(runtimeRequire, module, module.exports);
    return typeof module.exports === 'function' ? (module.exports as AjvValidateFunction) : undefined;
  } catch {
    return undefined; // missing, unreadable or broken: compiled again and rewritten
  }
}

/** Keeps `code` (ajv's standalone module of one validator) for `key`; a cache that cannot be written is skipped. */
export function writeCachedValidator(key: string, code: string): void {
  if (!cacheDir) return;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const file = join(cacheDir, `${key}.js`);
    // Written beside its place and renamed there, so that processes starting together never read half a file.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, code, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // the next process compiles it again
  }
}

/** ajv's standalone module of a compiled validator (its instance must keep sources: `code.source`). */
export function standaloneValidatorCode(ajv: unknown, validate: AjvValidateFunction): string {
  const standalone = nodeRequire('ajv/dist/standalone') as { default: (ajv: unknown, validate: unknown) => string };
  return standalone.default(ajv, validate);
}
