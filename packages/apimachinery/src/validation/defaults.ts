import type { FieldShape, FieldTree } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Applies the schemas' `default` values in place, as kube's structural defaulting does: a property that is absent
 * from an object present in the document gets its default (a copy), at every depth, in lists and maps too.
 */
export function applyDefaults(tree: FieldTree, typeKey: string, obj: unknown): void {
  const visit = (shape: FieldShape, value: unknown) => {
    if (shape === 0 || shape === '*' || value === null || value === undefined) return;
    if (typeof shape === 'string') {
      const type = tree.types[shape];
      if (!type || !isObject(value)) return;
      for (const [key, def] of Object.entries(type.defaults ?? {})) {
        if (value[key] === undefined) value[key] = structuredClone(def);
      }
      for (const [key, child] of Object.entries(value)) {
        const known = type.props[key];
        if (known !== undefined) visit(known, child);
      }
      return;
    }
    if ('a' in shape) {
      if (Array.isArray(value)) for (const item of value) visit(shape.a, item);
      return;
    }
    if (isObject(value)) for (const item of Object.values(value)) visit(shape.m, item);
  };
  visit(typeKey, obj);
}
