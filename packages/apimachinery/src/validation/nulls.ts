import { dropNulls, setOwn } from '../meta/own.js';
import type { FieldShape, FieldTree } from './types.js';

/**
 * A copy of a decoded object without its `null` members ({@link dropNulls}), as kube decodes one: a typed field's null
 * is its zero value (left out), but for the properties its field tree declares `nullable`, whose `null` is kept (kube
 * keeps a custom resource's null where the schema says `nullable: true`). Free-form JSON (`'*'`, kube's RawExtension
 * and JSON fields) and the unknown fields of an object that preserves them are kept as they are, nulls and all, as
 * kube keeps them. Beyond the tree's shapes (unions, unknown fields elsewhere), every null is dropped.
 */
export function dropNullsBy(tree: FieldTree, typeKey: string, value: unknown): unknown {
  return strip(tree, typeKey, value);
}

function strip(tree: FieldTree, shape: FieldShape | undefined, value: unknown): unknown {
  if (shape === '*') return value;
  if (Array.isArray(value)) {
    const item = shape !== undefined && typeof shape === 'object' && 'a' in shape ? shape.a : undefined;
    return value.map((v) => strip(tree, item, v));
  }
  if (!value || typeof value !== 'object') return value;
  const type = typeof shape === 'string' ? tree.types[shape] : undefined;
  const values = shape !== undefined && typeof shape === 'object' && 'm' in shape ? shape.m : undefined;
  if (!type && values === undefined) return dropNulls(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (type?.preserveUnknown && !Object.prototype.hasOwnProperty.call(type.props, k)) {
      setOwn(out, k, v);
      continue;
    }
    if (v === null) {
      if (type?.nullable?.includes(k)) setOwn(out, k, null);
      continue;
    }
    setOwn(out, k, strip(tree, type ? type.props[k] : values, v));
  }
  return out;
}
