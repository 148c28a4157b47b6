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
/** Read-only directories of validators compiled when a program was built (usePrebuiltValidators), searched first. */
const prebuiltDirs: string[] = [];

/** Turns the cache on in `dir` (made with mode 0700 when missing), or off with `undefined`. */
export function setValidatorCache(dir: string | undefined): void {
  cacheDir = dir;
}

/** The cache directory in use, if any. */
export function validatorCacheDir(): string | undefined {
  return cacheDir;
}

/**
 * Validators compiled ahead of time: a directory a program's build filled with the cache's files (a build that turned
 * the cache on in it and compiled what the program's start needs), shipped beside the program's code and looked in
 * before compiling. Its files are trusted as that code is: used when they are regular files nobody but their owner (this
 * user or root) may write; they are never written to. A file made from other schemas or another ajv has another name,
 * so a stale directory costs compiles, never a wrong validator. Returns what stops looking there.
 */
export function usePrebuiltValidators(dir: string): () => void {
  prebuiltDirs.push(dir);
  return () => {
    const at = prebuiltDirs.indexOf(dir);
    if (at >= 0) prebuiltDirs.splice(at, 1);
  };
}

/** Whether validators are looked up by key at all: a cache or a prebuilt directory is in use. */
export function validatorLookupOn(): boolean {
  return cacheDir !== undefined || prebuiltDirs.length > 0;
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

const uid = process.getuid?.();
/** The cache's own files: this user's, and nobody else may read or write them. */
const privateFile = (mode: number, owner: number) => (mode & 0o077) === 0 && (uid === undefined || owner === uid);
/** A prebuilt file: written by this user or root only (as the program's own code). */
const trustedFile = (mode: number, owner: number) => (mode & 0o022) === 0 && (uid === undefined || owner === uid || owner === 0);

/** The validator in `dir`'s file for `key`, if it is there and passes `trusted`. */
function loadValidator(dir: string, key: string, trusted: (mode: number, owner: number) => boolean): AjvValidateFunction | undefined {
  const file = join(dir, `${key}.js`);
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || !trusted(stat.mode, stat.uid)) return undefined;
    const module = { exports: {} as unknown };
    new Function('require', 'module', 'exports', readFileSync(file, 'utf8'))(runtimeRequire, module, module.exports);
    return typeof module.exports === 'function' ? (module.exports as AjvValidateFunction) : undefined;
  } catch {
    return undefined; // missing, unreadable or broken: compiled again (and rewritten in the cache)
  }
}

/** The validator for `key` from a prebuilt directory or the cache, when one holds a usable file. */
export function readCachedValidator(key: string): AjvValidateFunction | undefined {
  for (const dir of prebuiltDirs) {
    const found = loadValidator(dir, key, trustedFile);
    if (found) return found;
  }
  return cacheDir === undefined ? undefined : loadValidator(cacheDir, key, privateFile);
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
