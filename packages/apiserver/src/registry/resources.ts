import {
  applyDefaults,
  createMessageCodec,
  newBadRequest,
  FieldDecodeError,
  type GroupDefinition,
  type KubeObject,
  type TypeDefaulter,
  type MessageCodec,
  type ObjectValidator,
  type ResourceInfo,
  type TablePrinter,
} from '@kapi/apimachinery';
import { namespaceStrategy } from '../namespaces/strategy.js';
import type { GroupPlugin, Strategy } from '../plugin.js';

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
  /** Applies the schema defaults and every installed group's type defaulters to a decoded object (mutates it). */
  defaults(obj: KubeObject): void;
}

export const apiVersionOf = (info: { group: string; version: string }) =>
  info.group ? `${info.group}/${info.version}` : info.version;

/** Every resource of the installed groups, looked up by group, version and plural or by kind. */
export interface ResourceRegistry {
  groups: GroupDefinition[];
  entries: ResourceEntry[];
  lookup(group: string, version: string, plural: string): ResourceEntry | undefined;
  byKind(group: string, version: string, kind: string): ResourceEntry | undefined;
}

/** core/v1 Namespace: the one kind the core knows, as namespaced storage rests on its lifecycle. */
const isNamespaceKind = (info: ResourceInfo): boolean => info.group === '' && info.kind === 'Namespace';

export function createResourceRegistry(plugins: GroupPlugin[]): ResourceRegistry {
  const entries: ResourceEntry[] = [];
  const byPlural = new Map<string, ResourceEntry>();
  const byKind = new Map<string, ResourceEntry>();
  // One table for the server: a group's types appear in other groups' kinds.
  const defaulters: Record<string, TypeDefaulter> = Object.assign({}, ...plugins.map((p) => p.defaulters ?? {}));
  for (const plugin of plugins) {
    const group = plugin.definition;
    let codec: MessageCodec | undefined;
    for (const info of group.resources) {
      const typeKey = `${apiVersionOf(info)}/${info.kind}`;
      const validate = group.validators[typeKey];
      if (!validate) throw new Error(`${group.packageName}: no validator for ${typeKey}`);
      const entry: ResourceEntry = {
        info,
        group,
        strategy: plugin.strategies?.[info.kind] ?? (isNamespaceKind(info) ? namespaceStrategy : {}),
        printer: plugin.printers?.[info.kind],
        typeKey,
        validate,
        checkTypes: group.typeValidators?.[typeKey] ?? validate,
        codec: () => (codec ??= createMessageCodec(group.protobuf)),
        keyPrefix: info.group ? `/registry/${info.group}/${info.plural}/` : `/registry/${info.plural}/`,
        defaults: (obj) => {
          try {
            applyDefaults(group.fieldTree, typeKey, obj, defaulters);
          } catch (err) {
            if (!(err instanceof FieldDecodeError)) throw err;
            throw newBadRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${err.message}`);
          }
        },
      };
      const id = `${info.group}/${info.version}/${info.plural}`;
      if (byPlural.has(id)) throw new Error(`resource ${id} is installed twice`);
      byPlural.set(id, entry);
      byKind.set(`${info.group}/${info.version}/${info.kind}`, entry);
      entries.push(entry);
    }
  }
  return {
    groups: plugins.map((p) => p.definition),
    entries,
    lookup: (group, version, plural) => byPlural.get(`${group}/${version}/${plural}`),
    byKind: (group, version, kind) => byKind.get(`${group}/${version}/${kind}`),
  };
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
