// The checks kube's typed conversion makes before apply (typed.AsTyped's validation) that matter to field
// ownership: every element of an associative list must be addressable, and an applied configuration may not
// repeat a key. Messages and their path prefixes are upstream's (`.spec.ports: element 0: ...`).
import { listItemPE, listTypeAt, isObject } from './list-items.js';
import { peString, serializePE } from './path-element.js';
import type { Schema, TypeRef } from './schema.js';

/** Validation errors as `path: message` strings (empty when the value is valid). */
export function validateTyped(value: unknown, s: Schema, allowDuplicates: boolean): string[] {
  const errs: string[] = [];
  const walk = (v: unknown, t: TypeRef, prefix: string) => {
    if (Array.isArray(v)) {
      const lt = listTypeAt(s, t);
      const el = s.element(t);
      const seen = new Set<string>();
      for (let i = 0; i < v.length; i++) {
        if (lt.type === 'atomic') {
          walk(v[i], el, `${prefix}[${i}]`);
          continue;
        }
        const pe = listItemPE(s, t, lt, v[i]);
        if (typeof pe === 'string') {
          errs.push(`${prefix ? `${prefix}: ` : ''}element ${i}: ${pe}`);
          return;
        }
        const id = serializePE(pe);
        if (seen.has(id) && !allowDuplicates) errs.push(`${prefix ? `${prefix}: ` : ''}duplicate entries for key ${peString(pe)}`);
        seen.add(id);
        walk(v[i], el, prefix + peString(pe));
      }
    } else if (isObject(v)) {
      if (s.leafOnly(t)) return;
      for (const [k, val] of Object.entries(v)) walk(val, s.field(t, k), `${prefix}.${k}`);
    }
  };
  walk(value, s.root, '');
  return errs;
}

/** Go's ValidationErrors.Error(): one error as is, several as `errors:` and an indented line each. */
export const formatValidationErrors = (errs: readonly string[]): string =>
  errs.length === 1 ? errs[0]! : ['errors:', ...errs.map((e) => `  ${e}`)].join('\n');
