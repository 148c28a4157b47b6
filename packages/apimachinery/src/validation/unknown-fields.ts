import type { FieldShape, FieldTree } from './types.js';

export interface UnknownFieldsOptions {
  /** Delete unknown fields from the object in place (pruning), as well as reporting them. */
  prune?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Finds the fields of `obj` that its schema does not declare, as kube names them in warnings and strict errors
 * (`spec.foo`, `spec.containers[0].bar`), in document order. Free-form values and types marked
 * `x-kubernetes-preserve-unknown-fields` are kept as they are. Throws when `typeKey` is not in the tree.
 */
export function findUnknownFields(tree: FieldTree, typeKey: string, obj: unknown, options: UnknownFieldsOptions = {}): string[] {
  if (!tree.types[typeKey]) throw new Error(`no type ${typeKey} in the field tree`);
  const found: string[] = [];
  const visit = (shape: FieldShape, value: unknown, path: string) => {
    if (shape === 0 || shape === '*' || value === null || value === undefined) return;
    if (typeof shape === 'string') {
      const type = tree.types[shape];
      if (!type || !isObject(value)) return;
      for (const key of Object.keys(value)) {
        const child = path ? `${path}.${key}` : key;
        const known = type.props[key];
        if (known === undefined) {
          if (type.preserveUnknown) continue;
          found.push(child);
          if (options.prune) delete value[key];
          continue;
        }
        visit(known, value[key], child);
      }
      return;
    }
    if ('a' in shape) {
      if (Array.isArray(value)) value.forEach((item, i) => visit(shape.a, item, `${path}[${i}]`));
      return;
    }
    if (isObject(value)) for (const [key, item] of Object.entries(value)) visit(shape.m, item, `${path}[${key}]`);
  };
  visit(typeKey, obj, '');
  return found;
}
