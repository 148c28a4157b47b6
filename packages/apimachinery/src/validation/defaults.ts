import type { FieldTree } from './types.js';
import { walkFieldTree } from './walk.js';

/**
 * Applies the schemas' `default` values in place, as kube's structural defaulting does: a property that is absent
 * from an object present in the document gets its default (a copy), at every depth, in lists and maps too.
 */
export function applyDefaults(tree: FieldTree, typeKey: string, obj: unknown): void {
  walkFieldTree(tree, typeKey, obj, {
    onObject(type, value) {
      for (const [key, def] of Object.entries(type.defaults ?? {})) {
        if (value[key] === undefined) value[key] = structuredClone(def);
      }
    },
  });
}
