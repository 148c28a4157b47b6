import type { GroupDefinition } from '@kapi/apimachinery';
import type { GroupPlugin } from './plugin.js';

/**
 * kube-apiserver's `--runtime-config` (pflag's ConfigurationMap): each key as given, with its value (`''` for a key
 * given without `=`). Keys are `api/all`, `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>`,
 * `<group>/<version>/<resource>`, and the core group's `v1` (or `api/v1`); `api/legacy` is accepted and ignored.
 */
export type RuntimeConfig = Readonly<Record<string, string>>;

/** A `--runtime-config` that cannot be applied; the message is kube-apiserver's. */
export class RuntimeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeConfigError';
  }
}

const MATCHERS: Record<string, (version: string) => boolean> = {
  'api/all': () => true,
  'api/ga': (v) => /^v\d+$/.test(v),
  'api/beta': (v) => /^v\d+beta\d+$/.test(v),
  'api/alpha': (v) => /^v\d+alpha\d+$/.test(v),
};

/**
 * Reads `--runtime-config` values (the flag repeats; each value is comma-separated `key=value` pairs) into one
 * map, later keys winning, keys and values trimmed, as pflag's ConfigurationMap does.
 */
export function parseRuntimeConfig(values: readonly string[]): Record<string, string> {
  const config: Record<string, string> = {};
  for (const value of values) {
    for (const pair of value.split(',')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      if (eq < 0) config[pair.trim()] = '';
      else config[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
    }
  }
  return config;
}

/**
 * kube-apiserver's rewrite of the core group's keys (its options' Complete): `v1`, `api/v1` (and their
 * `/<resource>` forms) name the core group as `/v1`; `api/legacy` means nothing any more and is dropped.
 */
function normalize(config: RuntimeConfig): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    if (key === 'api/legacy') continue;
    const core = /^(?:api\/)?(v1(?:\/.*)?)$/.exec(key);
    out.set(core ? `/${core[1]}` : key, value);
  }
  return out;
}

interface GroupVersion {
  group: string;
  version: string;
}

/** schema.ParseGroupVersion: `version` alone is the core group's; more than one `/` is an error. */
function parseGroupVersion(text: string): GroupVersion | undefined {
  if (text === '' || text === '/') return { group: '', version: '' };
  const parts = text.split('/');
  if (parts.length === 1) return { group: '', version: text };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return undefined;
}

const gvString = ({ group, version }: GroupVersion) => (group ? `${group}/${version}` : version);

/** Go's strconv.ParseBool, with kube's reading of an empty value as true. */
function parseEnabled(key: string, value: string): boolean {
  if (value === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new RuntimeConfigError(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/**
 * The checks of `--runtime-config` that need no knowledge of the served groups (kube's APIEnablementOptions.Validate
 * and MergeAPIResourceConfigs): `api/all=false` alone, keys that are no `group/version[/resource]`, values that are
 * no bool (`api/*` keys take `true` or `false` only), resources not in lower case. Throws RuntimeConfigError.
 */
export function validateRuntimeConfig(config: RuntimeConfig): void {
  const entries = normalize(config);
  if (entries.get('api/all') === 'false' && entries.size === 1) {
    throw new RuntimeConfigError('invalid runtime-config with only api/all=false');
  }
  for (const [key, value] of entries) {
    if (Object.hasOwn(MATCHERS, key)) {
      if (value !== 'true' && value !== 'false') throw new RuntimeConfigError(`invalid value ${key}=${value}`);
      continue;
    }
    const tokens = key.split('/');
    if ((tokens.length !== 2 && tokens.length !== 3) || !parseGroupVersion(`${tokens[0]}/${tokens[1]}`)) {
      throw new RuntimeConfigError(`runtime-config invalid key ${key}`);
    }
    parseEnabled(key, value);
    if (tokens.length === 3 && tokens[2].toLowerCase() !== tokens[2]) {
      throw new RuntimeConfigError(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(tokens[2])}`);
    }
  }
}

/**
 * Applies `--runtime-config` to the group plugins a server is about to be created with, as kube-apiserver's
 * resource config decides what it installs: every version the plugins define is on unless the config turns it off.
 * `api/all`, `api/ga`, `api/beta` and `api/alpha` apply first (in that order), then `<group>/<version>` keys, then
 * `<group>/<version>/<resource>` keys. Returns the plugins with their definitions narrowed to the versions and
 * resources left on (the same plugin object where nothing changed); a group with none left is dropped, so it is not
 * served, discovered or installed at all. Keys naming a group no plugin serves fail with kube's "unknown api groups";
 * a version the group does not have fails too. Throws RuntimeConfigError; does not modify its arguments.
 *
 * Unlike kube, which still stores a kind in its storage version when that version is not served, nothing here
 * changes where objects are stored: a kind's conversion keeps its storage version whether or not it is served.
 */
export function applyRuntimeConfig(plugins: readonly GroupPlugin[], config: RuntimeConfig): GroupPlugin[] {
  validateRuntimeConfig(config);
  const entries = normalize(config);
  const groups = new Map<string, GroupDefinition>(plugins.map((p) => [p.definition.group, p.definition]));

  const versionPrefs = new Map<string, boolean>();
  const resourcePrefs = new Map<string, boolean>();
  const unknown = new Set<string>();
  for (const [key, value] of entries) {
    if (Object.hasOwn(MATCHERS, key)) continue;
    const tokens = key.split('/');
    const gv = parseGroupVersion(`${tokens[0]}/${tokens[1]}`)!;
    const definition = groups.get(gv.group);
    if (!definition) {
      unknown.add(gvString(gv));
      continue;
    }
    if (!definition.versions.includes(gv.version)) {
      throw new RuntimeConfigError(`group version ${gvString(gv)} that has not been registered`);
    }
    const enabled = parseEnabled(key, value);
    if (tokens.length === 2) versionPrefs.set(gvString(gv), enabled);
    else resourcePrefs.set(`${gvString(gv)}/${tokens[2]}`, enabled);
  }
  if (unknown.size) throw new RuntimeConfigError(`unknown api groups ${[...unknown].sort().join(',')}`);

  const versionEnabled = (gv: GroupVersion): boolean => {
    let enabled = true;
    for (const [key, matches] of Object.entries(MATCHERS)) {
      if (entries.has(key) && matches(gv.version)) enabled = entries.get(key) === 'true';
    }
    return versionPrefs.get(gvString(gv)) ?? enabled;
  };

  const out: GroupPlugin[] = [];
  for (const plugin of plugins) {
    const definition = plugin.definition;
    const group = definition.group;
    const resources = definition.resources.filter((r) => resourcePrefs.get(`${gvString(r)}/${r.plural}`) ?? versionEnabled(r));
    // A version is served while one of its resources is; one with no resources at all, while it is on.
    const versions = definition.versions.filter((version) =>
      definition.resources.some((r) => r.version === version)
        ? resources.some((r) => r.version === version)
        : versionEnabled({ group, version }),
    );
    if (resources.length === definition.resources.length && versions.length === definition.versions.length) {
      out.push(plugin);
      continue;
    }
    if (!versions.length) continue;
    const kinds = new Set(resources.map((r) => r.kind));
    const narrowed: GroupPlugin = { ...plugin, definition: { ...definition, versions, resources } };
    if (plugin.storedAs) narrowed.storedAs = Object.fromEntries(Object.entries(plugin.storedAs).filter(([kind]) => kinds.has(kind)));
    out.push(narrowed);
  }
  return out;
}
