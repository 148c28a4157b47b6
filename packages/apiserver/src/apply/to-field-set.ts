// The fields an object sets (typed.ToFieldSet): every scalar, every atomic list or map as one leaf, every element
// of an associative list (and, below it, its own fields), every map key; a struct field only when it is a leaf,
// null or an empty object. Repeated keys in a list are owned as the element alone.
import { difference, recursiveDifference, SetBuilder, type FieldSet } from './field-set.js';
import { isObject, itemPE, listTypeAt } from './list-items.js';
import { fieldPE, serializePE, type PathElement } from './path-element.js';
import { STRIP_SET, toResetSet, type ResetFieldsInput } from './reset-fields.js';
import { resolveSchema, type Schema, type SchemaInput, type TypeRef } from './schema.js';

/** The raw field set of `value` at `t`, below `prefix`, into `b`. */
export function collectFieldSet(s: Schema, value: unknown, t: TypeRef, prefix: PathElement[], b: SetBuilder): void {
  if (value === null || typeof value !== 'object') {
    b.insert(prefix);
    return;
  }
  if (Array.isArray(value)) {
    const lt = listTypeAt(s, t);
    if (lt.type === 'atomic') {
      b.insert(prefix);
      return;
    }
    const el = s.element(t);
    const pes = value.map((item) => itemPE(s, t, lt, item));
    const count = new Map<string, number>();
    for (const pe of pes) if (pe) count.set(serializePE(pe), (count.get(serializePE(pe)) ?? 0) + 1);
    const done = new Set<string>();
    pes.forEach((pe, i) => {
      if (!pe) return;
      const id = serializePE(pe);
      const path = [...prefix, pe];
      if (count.get(id)! > 1) {
        // Duplicates are owned as the element only, once.
        if (!done.has(id)) b.insert(path);
        done.add(id);
        return;
      }
      collectFieldSet(s, value[i], el, path, b);
      b.insert(path);
    });
    return;
  }
  if (s.leafOnly(t) || s.atomicObject(t)) {
    b.insert(prefix);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const path = [...prefix, fieldPE(k)];
    collectFieldSet(s, v, s.field(t, k), path, b);
    if (v === null || (isObject(v) && Object.keys(v).length === 0) || !s.isNamedField(t, k)) b.insert(path);
  }
}

/** The raw field set of a whole object (nothing excluded). */
export function rawFieldSet(s: Schema, obj: unknown): FieldSet {
  const b = new SetBuilder();
  collectFieldSet(s, obj, s.root, [], b);
  return b.build();
}

export interface FieldSetOptions {
  /** Fields the strategy resets (`status` on the main resource...): excluded with everything below them. */
  resetFields?: ResetFieldsInput;
  /** Keep apiVersion, kind and the server-set metadata fields, which kube never records as owned. */
  raw?: boolean;
}

/**
 * The fields `obj` would own, as kube records them: the object's field set minus apiVersion, kind, metadata.name,
 * namespace, uid, resourceVersion, generation, creationTimestamp, selfLink, managedFields (and `metadata` itself),
 * minus the reset fields and everything below them.
 */
export function fieldSetOf(obj: unknown, meta: SchemaInput, options: FieldSetOptions = {}): FieldSet {
  const set = rawFieldSet(resolveSchema(meta), obj);
  if (options.raw) return set;
  return difference(recursiveDifference(set, toResetSet(options.resetFields)), STRIP_SET);
}
