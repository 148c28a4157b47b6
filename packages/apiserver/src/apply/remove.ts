// Removing a set of fields from a value (typed.RemoveItems): a member is dropped with everything below it; a path
// below an element or field is removed inside it. A map or list emptied by the removal is dropped itself (upstream
// leaves a null, which kube's typed objects drop); atomic values cannot be entered, so they are dropped whole.
import { setOwn } from '@kapi/apimachinery';
import { has, isEmpty, withPrefix, type FieldSet } from './field-set.js';
import { isObject, itemPE, listTypeAt } from './list-items.js';
import { fieldPE } from './path-element.js';
import type { Schema, TypeRef } from './schema.js';

/** `value` without the fields of `set`; undefined when nothing is left of a map or list. */
export function removeFields(s: Schema, value: unknown, set: FieldSet): unknown {
  if (isEmpty(set)) return value;
  return remove(s, value, set, s.root);
}

function remove(s: Schema, v: unknown, set: FieldSet, t: TypeRef): unknown {
  if (Array.isArray(v)) {
    if (v.length === 0) return v;
    const lt = listTypeAt(s, t);
    if (lt.type === 'atomic') return undefined;
    const el = s.element(t);
    const out: unknown[] = [];
    for (const item of v) {
      const pe = itemPE(s, t, lt, item);
      if (!pe) {
        out.push(item);
        continue;
      }
      if (has(set, [pe])) continue;
      const sub = withPrefix(set, pe);
      if (isEmpty(sub)) {
        out.push(item);
        continue;
      }
      const rest = remove(s, item, sub, el);
      out.push(rest === undefined ? {} : rest);
    }
    return out.length ? out : undefined;
  }
  if (isObject(v)) {
    if (Object.keys(v).length === 0) return v;
    if (s.leafOnly(t) || s.atomicObject(t)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) {
      const pe = fieldPE(k);
      if (has(set, [pe])) continue;
      const sub = withPrefix(set, pe);
      const rest = isEmpty(sub) ? val : remove(s, val, sub, s.field(t, k));
      if (rest !== undefined) setOwn(out, k, rest);
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}
