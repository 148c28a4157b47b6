// What the apply engine knows about a kind's shape: list and map semantics from ResourceInfo.patchMeta (dotted paths
// from the root, list elements and map values adding no segment), and, when given, struct-versus-map knowledge from
// the group's FieldTree. Without a FieldTree every object is taken for a struct (its keys are named fields).
import type { FieldPatchMeta, FieldShape, FieldTree } from '@kapi/apimachinery';

/** Schema input of the apply functions: a kind's patch metadata, optionally with its group's field tree. */
export interface ApplySchema {
  patchMeta: Readonly<Record<string, FieldPatchMeta>>;
  /** Known fields of the group's types (GroupDefinition.fieldTree): tells structs from maps. */
  fieldTree?: FieldTree;
  /** Type key of the kind in `fieldTree` (`apps/v1/Deployment`). */
  rootType?: string;
}

/** Either an {@link ApplySchema} or a bare `patchMeta` record. */
export type SchemaInput = ApplySchema | Readonly<Record<string, FieldPatchMeta>>;

/** Where a walk is in the schema: the patchMeta path and, with a field tree, the shape there. */
export interface TypeRef {
  readonly path: string;
  /** `undefined`: nothing known (no field tree, or a field it does not declare). */
  readonly shape: FieldShape | undefined;
}

export type ListType = { readonly type: 'atomic' } | { readonly type: 'set' } | { readonly type: 'map'; readonly keys: readonly string[] };

export interface Schema {
  readonly root: TypeRef;
  /** The type of field or map key `name` of the object at `t`. */
  field(t: TypeRef, name: string): TypeRef;
  /** The element type of the list at `t`. */
  element(t: TypeRef): TypeRef;
  /** Whether `name` is a declared struct field of the object at `t` (not a map key, not an unknown field). */
  isNamedField(t: TypeRef, name: string): boolean;
  /** How the list at `t` merges and is owned. */
  list(t: TypeRef): ListType;
  /** Whether the object at `t` is owned and replaced as a whole. */
  atomicObject(t: TypeRef): boolean;
  /** Whether a non-scalar value at `t` must be treated as one opaque leaf (a scalar-typed field). */
  leafOnly(t: TypeRef): boolean;
  /** The default of a map-list key field that an element omits, if the schema has one. */
  keyDefault(t: TypeRef, key: string): unknown;
}

// A bare patchMeta record is keyed by field paths, never by `patchMeta`.
const isApplySchema = (s: SchemaInput): s is ApplySchema =>
  typeof (s as ApplySchema).patchMeta === 'object' && (s as ApplySchema).patchMeta !== null;

const join = (path: string, name: string): string => (path ? `${path}.${name}` : name);

// kube's OpenAPI defaults every map-list key named `protocol` (container, service and endpoint ports) to TCP.
const KEY_DEFAULTS: Record<string, unknown> = { protocol: 'TCP' };

const schemaCache = new WeakMap<object, Schema>();

/** Builds (once per input object) the schema view the walkers use. */
export function resolveSchema(input: SchemaInput): Schema {
  const cached = schemaCache.get(input);
  if (cached) return cached;
  const patchMeta = isApplySchema(input) ? input.patchMeta : (input as Readonly<Record<string, FieldPatchMeta>>);
  const tree = isApplySchema(input) ? input.fieldTree : undefined;
  // Paths are built from the object's own keys: `constructor` or `__proto__` must not find Object's members.
  const metaAt = (path: string) => (Object.hasOwn(patchMeta, path) ? patchMeta[path] : undefined);
  const rootType = isApplySchema(input) ? input.rootType : undefined;
  const typed = tree !== undefined && rootType !== undefined && tree.types[rootType] !== undefined;
  // An unknown field below a typed schema is deduced, like kube treats fields it has no schema for.
  const unknownShape: FieldShape | undefined = typed ? '*' : undefined;
  const typeOf = (shape: FieldShape | undefined) =>
    typeof shape === 'string' && shape !== '*' && tree ? tree.types[shape] : undefined;

  const schema: Schema = {
    root: { path: '', shape: typed ? rootType : undefined },
    field(t, name) {
      const shape = t.shape;
      if (shape === '*' || shape === 0) return { path: join(t.path, name), shape };
      if (typeof shape === 'object' && 'm' in shape) return { path: t.path, shape: shape.m };
      const type = typeOf(shape);
      if (type) {
        if (Object.hasOwn(type.props, name)) return { path: join(t.path, name), shape: type.props[name] };
        return { path: join(t.path, name), shape: type.preserveUnknown ? '*' : unknownShape };
      }
      return { path: join(t.path, name), shape: typeof shape === 'string' ? unknownShape : undefined };
    },
    element(t) {
      const shape = t.shape;
      if (typeof shape === 'object' && 'a' in shape) return { path: t.path, shape: shape.a };
      return { path: t.path, shape: shape === '*' || shape === 0 ? shape : typed ? unknownShape : undefined };
    },
    isNamedField(t, name) {
      const shape = t.shape;
      if (shape === undefined) return true;
      const type = typeOf(shape);
      return type !== undefined && Object.hasOwn(type.props, name);
    },
    list(t) {
      if (t.shape === '*' || t.shape === 0) return { type: 'atomic' };
      const m = metaAt(t.path);
      if (m?.listType === 'atomic') return { type: 'atomic' };
      if (m?.listType === 'set') return { type: 'set' };
      if (m?.listType === 'map') {
        const keys = m.listMapKeys?.length ? m.listMapKeys : m.patchMergeKey ? [m.patchMergeKey] : [];
        return keys.length ? { type: 'map', keys } : { type: 'atomic' };
      }
      if (!m?.listType && (m?.patchStrategy === 'merge' || m?.patchStrategy === 'merge,retainKeys')) {
        return m.patchMergeKey ? { type: 'map', keys: [m.patchMergeKey] } : { type: 'set' };
      }
      return { type: 'atomic' };
    },
    atomicObject(t) {
      if (t.shape === 0) return true;
      return metaAt(t.path)?.mapType === 'atomic';
    },
    leafOnly(t) {
      return t.shape === 0;
    },
    keyDefault(_t, key) {
      return Object.hasOwn(KEY_DEFAULTS, key) ? KEY_DEFAULTS[key] : undefined;
    },
  };
  schemaCache.set(input, schema);
  return schema;
}
