import type { FieldTree } from './types.js';
import { walkFieldTree } from './walk.js';

export interface UnknownFieldsOptions {
  /** Delete unknown fields from the object in place (pruning), as well as reporting them. */
  prune?: boolean;
}

/**
 * Finds the fields of `obj` that its schema does not declare, as kube names them in warnings and strict errors
 * (`spec.foo`, `spec.containers[0].bar`), in document order. Free-form values and types marked
 * `x-kubernetes-preserve-unknown-fields` are kept as they are. Throws when `typeKey` is not in the tree.
 */
export function findUnknownFields(tree: FieldTree, typeKey: string, obj: unknown, options: UnknownFieldsOptions = {}): string[] {
  if (!tree.types[typeKey]) throw new Error(`no type ${typeKey} in the field tree`);
  const found: string[] = [];
  walkFieldTree(tree, typeKey, obj, {
    onUnknown(type, value, key, path) {
      if (type.preserveUnknown) return;
      found.push(path);
      if (options.prune) delete value[key];
    },
  });
  return found;
}
