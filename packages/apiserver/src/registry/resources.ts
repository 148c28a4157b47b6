import {
  applyDefaults,
  walkFieldTree,
  createMessageCodec,
  newBadRequest,
  FieldDecodeError,
  type FieldShape,
  type FieldTree,
  type Obj,
  type TypeShape,
  type GroupDefinition,
  type KubeObject,
  type TypeDefaulter,
  type MessageCodec,
  type ObjectValidator,
  type ResourceInfo,
  type TablePrinter,
} from '@kapi/apimachinery';
import { namespaceStrategy } from '../namespaces/strategy.js';
import type { GroupPlugin, KindConversion, StoredResource, Strategy } from '../plugin.js';

/** One served resource and everything the Store needs for it. */
export interface ResourceEntry {
  info: ResourceInfo;
  group: GroupDefinition;
  strategy: Strategy;
  /** The kind's computed table cells, from its plugin. */
  printer?: TablePrinter;
  /** `<apiVersion>/<Kind>`: the key of the kind's validator and field-tree type. */
  typeKey: string;
  /** The kind's full schema validation (types, required fields, enums), run once per write by the Store. */
  validate: ObjectValidator;
  /** Type checks only, run when a body is decoded (kube's decoding into typed structs). */
  checkTypes: ObjectValidator;
  /** The group's Protobuf codec, built on first use. */
  codec(): MessageCodec;
  /** Storage key prefix of the collection: `/registry/pods/`, `/registry/apps/deployments/`. */
  keyPrefix: string;
  /**
   * The resource the kind's objects are stored as: its own (`{ group: 'apps', resource: 'deployments' }`), or the
   * other group's its plugin declares in `storedAs` (events.k8s.io Events are stored as core `events`). Encryption
   * at rest and storage metrics name this resource.
   */
  storedAs: StoredResource;
  /** Whether the kind is stored with another group's resource (GroupPlugin.storedAs). */
  cohabiting: boolean;
  /** Applies the schema defaults and every installed group's type defaulters to a decoded object (mutates it). */
  defaults(obj: KubeObject): void;
  /**
   * The paths in `obj` of values of a type some installed group validates wholly itself (GroupPlugin.validatedTypes):
   * the schema's `required` lists are not enforced under them. `''` is the object itself.
   */
  validatedPaths(obj: KubeObject): string[];
  /** How the kind's versions convert, when it is served in several: objects are stored in one of them. */
  conversion?: KindConversion;
}

export const apiVersionOf = (info: { group: string; version: string }) =>
  info.group ? `${info.group}/${info.version}` : info.version;

/**
 * Every resource of the installed groups, looked up by group, version and plural, by kind, or by storage key. Groups
 * may be installed and uninstalled while the server runs (CustomResourceDefinitions): `groups` and `entries` are
 * read afresh on every call, and `onChange` listeners hear of each change.
 */
export interface ResourceRegistry {
  readonly groups: GroupDefinition[];
  readonly entries: readonly ResourceEntry[];
  lookup(group: string, version: string, plural: string): ResourceEntry | undefined;
  byKind(group: string, version: string, kind: string): ResourceEntry | undefined;
  /**
   * The entry of the collection a storage key belongs to; the versions of a kind share one collection (so do kinds
   * stored with another group's resource), and `apiVersion` (a stored object's) picks among them; without one (or
   * when none matches), the collection's own resource's entry comes first.
   */
  forKey(key: string, apiVersion?: string): ResourceEntry | undefined;
  /** Builds a plugin's entries without serving them (throws when one is not valid). */
  prepare(plugin: GroupPlugin): ResourceEntry[];
  /**
   * Serves prepared entries from now on, in place of `replacing` (served by an earlier add) when given; throws, and
   * changes nothing, when a resource is already served by another.
   */
  add(plugin: GroupPlugin, entries: readonly ResourceEntry[], replacing?: readonly ResourceEntry[]): void;
  /** Stops serving entries `add` served (their plugin's definition leaves `groups`). */
  remove(entries: readonly ResourceEntry[]): void;
  /** Calls `listener` after every add and remove. */
  onChange(listener: () => void): void;
}

/** core/v1 Namespace: the one kind the core knows, as namespaced storage rests on its lifecycle. */
const isNamespaceKind = (info: ResourceInfo): boolean => info.group === '' && info.kind === 'Namespace';

/** The storage key prefix of a resource's collection: `/registry/pods/`, `/registry/apps/deployments/`. */
export const keyPrefixOf = (info: { group: string; plural: string }): string =>
  info.group ? `/registry/${info.group}/${info.plural}/` : `/registry/${info.plural}/`;

/** Whether a value of `typeKey` can hold a value of one of `types` (itself included), through any of its fields. */
function reachesAny(tree: FieldTree, typeKey: string, types: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  const visit = (shape: FieldShape): boolean => {
    if (shape === 0 || shape === '*') return false;
    if (typeof shape !== 'string') return 'a' in shape ? visit(shape.a) : 'm' in shape ? visit(shape.m) : shape.u.some(visit);
    if (types.has(shape)) return true;
    if (seen.has(shape)) return false;
    seen.add(shape);
    return Object.values(tree.types[shape]?.props ?? {}).some(visit);
  };
  return visit(typeKey);
}

/**
 * Walks the values of `types` in `obj` (GroupPlugin.validatedTypes) and every object inside them, calling `inside`
 * on each; returns the paths of the outermost ones (`''`: the object itself).
 */
function walkValidated(tree: FieldTree, typeKey: string, obj: KubeObject, types: ReadonlySet<string>, inside?: (type: TypeShape, value: Obj) => void): string[] {
  const roots: string[] = [];
  const under = (path: string) => roots.some((p) => p === '' || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));
  walkFieldTree(tree, typeKey, obj, {
    onObject: (type, value, path, name) => {
      if (!under(path)) {
        if (!types.has(name)) return;
        roots.push(path);
      }
      inside?.(type, value);
    },
  });
  return roots;
}

/**
 * Inside values of the types a group validates wholly, a required scalar the object leaves out gets Go's zero value,
 * as kube's decoding into its Go types gives it (and writes it back): `lun: 0` of an iscsi volume without one,
 * `imageID: ""` of a container status.
 */
const fillZeros = (type: TypeShape, value: Obj) => {
  for (const [key, zero] of Object.entries(type.zeros ?? {})) if (value[key] === undefined) value[key] = zero;
};

export function createResourceRegistry(initial: GroupPlugin[]): ResourceRegistry {
  let entries: ResourceEntry[] = [];
  const plugins: GroupPlugin[] = [];
  const byPlural = new Map<string, ResourceEntry>();
  const byKind = new Map<string, ResourceEntry>();
  const byPrefix = new Map<string, ResourceEntry[]>();
  const listeners: (() => void)[] = [];
  // One table for the server: a group's types appear in other groups' kinds.
  const defaulters: Record<string, TypeDefaulter> = Object.assign({}, ...initial.map((p) => p.defaulters ?? {}));
  const validatedTypes = new Set(initial.flatMap((p) => p.validatedTypes ?? []));
  const pluralId = (info: ResourceInfo) => `${info.group}/${info.version}/${info.plural}`;
  const kindId = (info: ResourceInfo) => `${info.group}/${info.version}/${info.kind}`;

  const prepare = (plugin: GroupPlugin): ResourceEntry[] => {
    const group = plugin.definition;
    let codec: MessageCodec | undefined;
    const conversionOf = (kind: string) => plugin.conversions?.[kind] ?? group.conversions?.[kind];
    checkConversions(group, conversionOf);
    checkStoredAs(plugin, conversionOf);
    return group.resources.map((info) => {
      const other = plugin.storedAs?.[info.kind];
      const storedAs = other ?? { group: info.group, resource: info.plural };
      const typeKey = `${apiVersionOf(info)}/${info.kind}`;
      const validate = group.validators[typeKey];
      if (!validate) throw new Error(`${group.packageName}: no validator for ${typeKey}`);
      // Most kinds (a ConfigMap) hold no validated type: their writes are not walked for one.
      let reach: { size: number; value: boolean } | undefined;
      const holdsValidated = () => {
        if (reach?.size !== validatedTypes.size) reach = { size: validatedTypes.size, value: reachesAny(group.fieldTree, typeKey, validatedTypes) };
        return reach.value;
      };
      return {
        info,
        group,
        strategy: plugin.strategies?.[info.kind] ?? (isNamespaceKind(info) ? namespaceStrategy : {}),
        printer: plugin.printers?.[info.kind],
        conversion: conversionOf(info.kind),
        typeKey,
        validate,
        checkTypes: group.typeValidators?.[typeKey] ?? validate,
        codec: () => (codec ??= createMessageCodec(group.protobuf)),
        keyPrefix: keyPrefixOf({ group: storedAs.group, plural: storedAs.resource }),
        storedAs,
        cohabiting: !!other,
        defaults: (obj) => {
          try {
            applyDefaults(group.fieldTree, typeKey, obj, defaulters);
            if (holdsValidated()) walkValidated(group.fieldTree, typeKey, obj, validatedTypes, fillZeros);
          } catch (err) {
            if (!(err instanceof FieldDecodeError)) throw err;
            throw newBadRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${err.message}`);
          }
        },
        validatedPaths: (obj) => (holdsValidated() ? walkValidated(group.fieldTree, typeKey, obj, validatedTypes) : []),
      } satisfies ResourceEntry;
    });
  };

  const add = (plugin: GroupPlugin, added: readonly ResourceEntry[], replacing: readonly ResourceEntry[] = []) => {
    const ids = new Set<string>();
    const replaced = new Set(replacing);
    for (const { info } of added) {
      const id = pluralId(info);
      const served = byPlural.get(id);
      if ((served && !replaced.has(served)) || ids.has(id)) throw new Error(`resource ${id} is installed twice`);
      ids.add(id);
    }
    if (replacing.length) unlink(replacing);
    Object.assign(defaulters, plugin.defaulters);
    for (const type of plugin.validatedTypes ?? []) validatedTypes.add(type);
    for (const entry of added) {
      byPlural.set(pluralId(entry.info), entry);
      byKind.set(kindId(entry.info), entry);
      // The resource's own entries first: a key read with no apiVersion (encryption, metrics) is theirs.
      const sharing = [...(byPrefix.get(entry.keyPrefix) ?? []), entry];
      byPrefix.set(entry.keyPrefix, [...sharing.filter((e) => !e.cohabiting), ...sharing.filter((e) => e.cohabiting)]);
    }
    plugins.push(plugin);
    entries = [...entries, ...added];
    for (const listener of listeners) listener();
  };

  /** Takes entries out of the lookups and their plugin out of `groups` (once none of its entries is left). */
  const unlink = (removed: readonly ResourceEntry[]) => {
    const gone = new Set(removed);
    for (const entry of removed) {
      if (byPlural.get(pluralId(entry.info)) === entry) byPlural.delete(pluralId(entry.info));
      if (byKind.get(kindId(entry.info)) === entry) byKind.delete(kindId(entry.info));
      const left = (byPrefix.get(entry.keyPrefix) ?? []).filter((e) => e !== entry);
      if (left.length) byPrefix.set(entry.keyPrefix, left);
      else byPrefix.delete(entry.keyPrefix);
    }
    entries = entries.filter((e) => !gone.has(e));
    const definitions = new Set(removed.map((e) => e.group));
    for (const definition of definitions) {
      if (entries.some((e) => e.group === definition)) continue;
      const at = plugins.findIndex((p) => p.definition === definition);
      if (at >= 0) plugins.splice(at, 1);
    }
  };

  const remove = (removed: readonly ResourceEntry[]) => {
    unlink(removed);
    for (const listener of listeners) listener();
  };

  for (const plugin of initial) add(plugin, prepare(plugin));
  return {
    get groups() {
      return plugins.map((p) => p.definition);
    },
    get entries() {
      return entries;
    },
    lookup: (group, version, plural) => byPlural.get(`${group}/${version}/${plural}`),
    byKind: (group, version, kind) => byKind.get(`${group}/${version}/${kind}`),
    forKey: (key, apiVersion) => {
      const found = byKeyPrefix(byPrefix, key);
      return (apiVersion && found?.find((e) => apiVersionOf(e.info) === apiVersion)) || found?.[0];
    },
    prepare,
    add,
    remove,
    onChange: (listener) => void listeners.push(listener),
  };
}

/**
 * A kind served in several versions needs a conversion (from its plugin, or generated into its group when no
 * hand-written hook is needed): without one, objects written in one version would be read back unconverted.
 */
function checkConversions(group: GroupDefinition, conversionOf: (kind: string) => KindConversion | undefined): void {
  const versions = new Map<string, string[]>();
  for (const info of group.resources) versions.set(info.kind, [...(versions.get(info.kind) ?? []), info.version]);
  for (const [kind, served] of versions) {
    if (served.length > 1 && !conversionOf(kind)) {
      throw new Error(
        `${group.group || 'core'} ${kind} is served in ${served.join(', ')} but has no conversion: install the group's plugin (createConversions)`,
      );
    }
  }
}

/**
 * A kind stored with another group's resource (GroupPlugin.storedAs) needs a conversion that names the stored
 * apiVersion: objects are stored in the other group's form.
 */
function checkStoredAs(plugin: GroupPlugin, conversionOf: (kind: string) => KindConversion | undefined): void {
  const group = plugin.definition;
  for (const [kind, other] of Object.entries(plugin.storedAs ?? {})) {
    const name = `${group.group || 'core'} ${kind}`;
    if (!group.resources.some((r) => r.kind === kind)) throw new Error(`storedAs: ${name} is not a kind of the group`);
    if (other.group === group.group) throw new Error(`storedAs: ${name} names its own group; its versions share one collection already`);
    if (!conversionOf(kind)?.storageApiVersion) {
      throw new Error(`${name} is stored as ${other.group || 'core'} ${other.resource} but its conversion has no storageApiVersion`);
    }
  }
}

/** The storage key of one object. */
export function objectKey(entry: ResourceEntry, namespace: string, name: string): string {
  return entry.info.scope === 'Namespaced' ? `${entry.keyPrefix}${namespace}/${name}` : `${entry.keyPrefix}${name}`;
}

/** The storage prefix of a collection, in one namespace or (empty) across all. */
export function collectionPrefix(entry: ResourceEntry, namespace: string): string {
  return entry.info.scope === 'Namespaced' && namespace ? `${entry.keyPrefix}${namespace}/` : entry.keyPrefix;
}

/**
 * The value of the collection a storage key belongs to, from a map by collection prefix: `/registry/<resource>/`
 * for the core group, `/registry/<group>/<resource>/` for the others.
 */
export function byKeyPrefix<T>(prefixes: ReadonlyMap<string, T>, key: string): T | undefined {
  const parts = key.split('/', 4);
  return prefixes.get(`/${parts[1]}/${parts[2]}/`) ?? prefixes.get(`/${parts[1]}/${parts[2]}/${parts[3]}/`);
}
