import { posix } from 'node:path';
import type { GroupFolder, SchemaFile, SchemaNode, SchemaSet } from './schema.js';

/** A named object type: a schema file's root, or an object with inline `properties` nested in one. */
export interface TypeDef {
  /** `<groupVersion>/<Name>` for a file root (`apps/v1/Deployment`, `v1/Pod`), plus `.<field>` segments when nested. */
  key: string;
  file: SchemaFile;
  /** TypeScript (and Protobuf message simple) name: the file name, or parent name + capitalized field. */
  name: string;
  node: SchemaNode;
  /** Full Protobuf message name. */
  message: string;
}

export interface Model {
  set: SchemaSet;
  group(folder: string): GroupFolder;
  groupVersion(file: SchemaFile): string;
  /** The file a `$ref` in `from` points to. Throws on a dangling reference. */
  resolve(from: SchemaFile, ref: string): SchemaFile;
  /** The type of a file root (objects, and special wire types). */
  rootType(file: SchemaFile): TypeDef;
  /** The nested type for an inline object node (`properties` without `$ref`). */
  nestedType(node: SchemaNode): TypeDef | undefined;
  /** Every type: file roots first, then their nested types, in a stable order. */
  types(file: SchemaFile): TypeDef[];
  /** Ids of the files reachable by `$ref` from the given folders' files, the folders' own files included. */
  closure(folders: string[], extra?: string[]): string[];
  /** Folders generated into the same package as `folder`. */
  packageFolders(folder: string): string[];
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A property name as a segment of a nested type name: `spec` → `Spec`. Property names may hold `-` and `$`, which
 * TypeScript and Protobuf identifiers cannot: they split words (`foo-bar` → `FooBar`, `$ref` → `Ref`).
 */
export const typeNameSegment = (prop: string): string =>
  prop.split(/[^A-Za-z0-9_]+/).filter(Boolean).map(capitalize).join('') || 'Field';

function protoPackage(group: GroupFolder, folder: string, version: string): string {
  if (group.group === '' || group.group.endsWith('.k8s.io') || !group.group.includes('.')) {
    return `k8s.io.api.${folder}.${version}`;
  }
  return [...group.group.split('.').reverse(), version].join('.');
}

/** Yields every inline object with properties below `node`, with the type-name suffix it gets. */
function* inlineObjects(node: SchemaNode, suffix: string): Generator<[SchemaNode, string]> {
  if (node.$ref) return;
  if (node.properties) {
    for (const [prop, child] of Object.entries(node.properties)) {
      yield* nestedOf(child, suffix + typeNameSegment(prop));
    }
  }
}

function* nestedOf(node: SchemaNode, name: string): Generator<[SchemaNode, string]> {
  if (node.$ref) return;
  if (node.type === 'array' && node.items) {
    yield* nestedOf(node.items, name);
    return;
  }
  if (node.type === 'object' && !node.properties && typeof node.additionalProperties === 'object') {
    yield* nestedOf(node.additionalProperties, name);
    return;
  }
  if (node.properties) {
    yield [node, name];
    yield* inlineObjects(node, name);
  }
}

/**
 * Two types with one Protobuf message name would silently share a descriptor entry (one's fields lost on the wire),
 * and two with one TypeScript name in a folder/version would clash in its barrel: both are schema errors.
 */
function checkUniqueNames(defs: TypeDef[]): void {
  const byMessage = new Map<string, TypeDef>();
  const byName = new Map<string, TypeDef>();
  const where = (d: TypeDef) => (d.node === d.file.schema ? `schemas/${d.file.id}.json` : `${d.name} (nested in schemas/${d.file.id}.json)`);
  for (const def of defs) {
    const clash = byMessage.get(def.message);
    if (clash) throw new Error(`${where(def)} and ${where(clash)} are both Protobuf message ${def.message}; rename one or use a $ref`);
    byMessage.set(def.message, def);
    const scoped = `${def.file.folder}/${def.file.version}/${def.name}`;
    const twin = byName.get(scoped);
    if (twin) throw new Error(`${where(def)} and ${where(twin)} are both type ${def.name} in ${def.file.folder}/${def.file.version}; rename one or use a $ref`);
    byName.set(scoped, def);
  }
}

/** The scheme of `$ref`s that name a schema by id: `kapi:meta/v1/ObjectMeta`, `kapi:core/v1/PodTemplateSpec`. */
const KAPI_REF = 'kapi:';

/** The schema id a `kapi:` reference names (`core/v1/PodSpec`, with or without `.json`); undefined for a path. */
export function kapiRefId(ref: string): string | undefined {
  return ref.startsWith(KAPI_REF) ? ref.slice(KAPI_REF.length).replace(/\.json$/, '') : undefined;
}

export function buildModel(set: SchemaSet): Model {
  const roots = new Map<string, TypeDef>();
  const nested = new Map<SchemaNode, TypeDef>();
  const typesByFile = new Map<string, TypeDef[]>();

  const group = (folder: string): GroupFolder => {
    const g = set.groups.get(folder);
    if (!g) throw new Error(`unknown schema folder ${folder}`);
    return g;
  };
  const groupVersion = (file: SchemaFile) => {
    const g = group(file.folder).group;
    return g ? `${g}/${file.version}` : file.version;
  };
  const messageOf = (file: SchemaFile, name: string) =>
    `${protoPackage(group(file.folder), file.folder, file.version)}.${name}`;

  for (const file of set.files.values()) {
    const root: TypeDef = {
      key: `${groupVersion(file)}/${file.name}`,
      file,
      name: file.name,
      node: file.schema,
      message: file.schema['x-kapi-protobuf']?.message ?? messageOf(file, file.name),
    };
    roots.set(file.id, root);
    const list = [root];
    const base = root.message.slice(0, root.message.lastIndexOf('.') + 1);
    for (const [node, name] of inlineObjects(file.schema, file.name)) {
      const suffix = name.slice(file.name.length);
      const def: TypeDef = { key: `${root.key}.${suffix}`, file, name, node, message: base + name };
      nested.set(node, def);
      list.push(def);
    }
    typesByFile.set(file.id, list);
  }
  checkUniqueNames([...typesByFile.values()].flat());

  const resolve = (from: SchemaFile, ref: string): SchemaFile => {
    // `kapi:<folder>/<version>/<Name>` names a schema by id wherever the referring file lives (a project outside
    // this repository refers to the built-in types so); anything else is a path relative to the referring file.
    const id = kapiRefId(ref) ?? posix.normalize(posix.join(from.folder, from.version, ref)).replace(/\.json$/, '');
    const target = set.files.get(id);
    if (!target) throw new Error(`schemas/${from.id}.json: $ref ${ref} does not resolve (looked for ${id}.json)`);
    return target;
  };

  const refsOf = (file: SchemaFile): SchemaFile[] => {
    const out: SchemaFile[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string') out.push(resolve(file, v));
          else walk(v);
        }
      }
    };
    walk(file.schema);
    return out;
  };

  const packageFolders = (folder: string) => {
    const pkg = group(folder).packageName;
    return [...set.groups.values()].filter((g) => g.packageName === pkg).map((g) => g.folder);
  };

  return {
    set,
    group,
    groupVersion,
    resolve,
    rootType: (file) => roots.get(file.id)!,
    nestedType: (node) => nested.get(node),
    types: (file) => typesByFile.get(file.id)!,
    packageFolders,
    closure(folders, extra = []) {
      const seen = new Set<string>();
      const queue = [...set.files.values()].filter((f) => folders.includes(f.folder) || extra.includes(f.id));
      while (queue.length) {
        const file = queue.shift()!;
        if (seen.has(file.id)) continue;
        seen.add(file.id);
        queue.push(...refsOf(file));
      }
      return [...seen].sort();
    },
  };
}
