import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { groupPlugin, type GroupPlugin } from '@kapi/apiserver';

type GroupDefinition = GroupPlugin['definition'];

/** How long a module may take to load (its top-level code, awaits included). */
const LOAD_TIMEOUT_MS = 60_000;

/** Where each loaded plugin came from, for errors found later (a group served twice). */
const origins = new WeakMap<GroupPlugin, string>();

/**
 * Loads the groups of `--plugin`: each value is an ES module (an absolute file path, or a package name resolved from
 * `cwd`) exporting `plugin` (a GroupPlugin), `plugins` (several), `group` (a generated GroupDefinition, served with
 * its schemas' behaviour only), or one of those as its default export. Throws with the flag's value when a module
 * cannot be loaded or exports none of them.
 */
export async function loadExternalPlugins(specifiers: readonly string[], cwd = process.cwd(), timeoutMs = LOAD_TIMEOUT_MS): Promise<GroupPlugin[]> {
  const plugins: GroupPlugin[] = [];
  for (const specifier of specifiers) {
    let url: string;
    try {
      url = moduleUrl(specifier, cwd);
    } catch {
      throw new Error(`--plugin ${specifier}: cannot load it: ${isAbsolute(specifier) ? 'no such file' : `no such package installed in ${cwd} or above`}`);
    }
    let module: Record<string, unknown>;
    try {
      module = (await withTimeout(import(url), timeoutMs)) as Record<string, unknown>;
    } catch (error) {
      // A module that is there but imports what is not (a dependency not installed) says which.
      throw new Error(`--plugin ${specifier}: cannot load it: ${(error as Error).message}`);
    }
    // A default export is a plugin or definition itself (a GroupDefinition has a `group` field of its own), or an
    // object holding them (a CommonJS module's exports).
    let found: GroupPlugin[] | undefined;
    try {
      found = pluginsOf(module) ?? asPlugins(module.default) ?? pluginsOf(module.default as Record<string, unknown> | undefined);
    } catch (error) {
      throw new Error(`--plugin ${specifier}: ${(error as Error).message}`);
    }
    if (!found) throw new Error(`--plugin ${specifier}: the module exports no group: export \`plugin\` (a GroupPlugin), \`plugins\` or \`group\` (a GroupDefinition)`);
    for (const plugin of found) origins.set(plugin, specifier);
    plugins.push(...found);
  }
  return plugins;
}

/** The `--plugin` value a plugin was loaded from; undefined for built-in ones. */
export function pluginOrigin(plugin: GroupPlugin): string | undefined {
  return origins.get(plugin);
}

/**
 * A module whose top-level await never settles would leave nothing for the event loop to wait on, and the process
 * would exit 0 without a word: the timer keeps it alive, and fails the load.
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not finish loading within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The module's URL; throws when the file or the package is not there. */
function moduleUrl(specifier: string, cwd: string): string {
  if (isAbsolute(specifier)) {
    if (!existsSync(specifier)) throw new Error('no such file');
    return pathToFileURL(specifier).href;
  }
  // A package installed where the server runs, not where it was installed: resolved as a script in cwd would.
  return pathToFileURL(createRequire(join(cwd, 'noop.js')).resolve(specifier)).href;
}

/** A module's (or a default export's) named exports: `plugins`, `plugin`, or `group`. */
function pluginsOf(exports: Record<string, unknown> | undefined): GroupPlugin[] | undefined {
  if (!exports || typeof exports !== 'object') return undefined;
  if (Array.isArray(exports.plugins)) return exports.plugins.map((p, i) => asPlugin(p, `plugins[${i}]`));
  if (exports.plugin !== undefined) return [asPlugin(exports.plugin, 'plugin')];
  if (exports.group !== undefined) return [asPlugin(exports.group, 'group')];
  return undefined;
}

function asPlugins(value: unknown): GroupPlugin[] | undefined {
  if (isGroupPlugin(value) || isGroupDefinition(value)) return [asPlugin(value, 'default')];
  return undefined;
}

function asPlugin(value: unknown, name: string): GroupPlugin {
  if (isGroupPlugin(value)) return value;
  if (isGroupDefinition(value)) return groupPlugin(value);
  throw new Error(`export ${name} is neither a GroupPlugin nor a GroupDefinition`);
}

function isGroupDefinition(value: unknown): value is GroupDefinition {
  const v = value as Partial<GroupDefinition> | undefined;
  return typeof v === 'object' && v !== null && typeof v.group === 'string' && Array.isArray(v.versions) && Array.isArray(v.resources);
}

function isGroupPlugin(value: unknown): value is GroupPlugin {
  return typeof value === 'object' && value !== null && isGroupDefinition((value as GroupPlugin).definition);
}
