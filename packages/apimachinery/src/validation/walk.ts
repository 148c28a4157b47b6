import type { FieldShape, FieldTree } from './types.js';

/** One object type of a field tree: its known properties, defaults and whether unknown ones are kept. */
export type TypeShape = FieldTree['types'][string];

export interface FieldTreeVisitor {
  /** Called on each object of a named type before its properties are walked; may add or delete properties. */
  onObject?(type: TypeShape, obj: Record<string, unknown>, path: string, name: string): void;
  /** Called, in document order, for each property the type does not declare (`path` is the property's). */
  onUnknown?(type: TypeShape, obj: Record<string, unknown>, key: string, path: string): void;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether a value has the JSON type of a shape: an array for `{a}`, an object for a type or a map. */
function fits(shape: FieldShape, value: unknown): boolean {
  if (shape === 0) return false;
  if (shape === '*') return true;
  if (typeof shape === 'string' || 'm' in shape) return isObject(value);
  if ('a' in shape) return Array.isArray(value);
  return shape.u.some((s) => fits(s, value));
}

/**
 * Walks a JSON value as `shape` of a group's field tree, with kube-style paths (`spec.containers[0].name`, map
 * entries as `labels[key]`). Free-form values (`'*'`) and scalars are not entered; known properties are walked in
 * document order; a union's value is walked as the alternative its JSON type fits.
 */
export function walkFieldTree(tree: FieldTree, shape: FieldShape, value: unknown, visitor: FieldTreeVisitor, path = ''): void {
  if (shape === 0 || shape === '*' || value === null || value === undefined) return;
  if (typeof shape === 'string') {
    const type = tree.types[shape];
    if (!type || !isObject(value)) return;
    visitor.onObject?.(type, value, path, shape);
    for (const key of Object.keys(value)) {
      // Own properties only: a key named `constructor` or `toString` is an unknown field, not Object's.
      const known = Object.hasOwn(type.props, key) ? type.props[key] : undefined;
      // Scalars and free-form values are not entered: no path to write for them.
      if (known === 0 || known === '*') continue;
      const child = path ? `${path}.${key}` : key;
      if (known === undefined) visitor.onUnknown?.(type, value, key, child);
      else walkFieldTree(tree, known, value[key], visitor, child);
    }
    return;
  }
  if ('u' in shape) {
    const alternative = shape.u.find((s) => fits(s, value));
    if (alternative !== undefined) walkFieldTree(tree, alternative, value, visitor, path);
    return;
  }
  if ('a' in shape) {
    const item = shape.a;
    if (item === 0 || item === '*' || !Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) walkFieldTree(tree, item, value[i], visitor, `${path}[${i}]`);
    return;
  }
  const entry = shape.m;
  if (entry === 0 || entry === '*' || !isObject(value)) return;
  for (const key in value) {
    if (Object.hasOwn(value, key)) walkFieldTree(tree, entry, value[key], visitor, `${path}[${key}]`);
  }
}
