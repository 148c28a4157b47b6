// EnsureNamedFieldsAreMembers: a set plus every struct field that has owned fields below it (but not map keys nor
// list elements). Pruning works on such sets, so that a struct left empty by the removal goes with it.
import { EMPTY_SET, union, type FieldSet, type SetNode } from './field-set.js';
import { comparePE, type PathElement } from './path-element.js';
import type { Schema, TypeRef } from './schema.js';

export function ensureNamedFieldsAreMembers(s: Schema, set: FieldSet, t: TypeRef = s.root): FieldSet {
  if (set.children.length === 0) return set;
  const added: PathElement[] = [];
  const children: SetNode[] = set.children.map((c) => {
    const named = c.pe.kind === 'field' && s.isNamedField(t, c.pe.name);
    if (named) added.push(c.pe);
    const ct = c.pe.kind === 'field' ? s.field(t, c.pe.name) : s.element(t);
    return { pe: c.pe, set: ensureNamedFieldsAreMembers(s, c.set, ct) };
  });
  const rebuilt: FieldSet = { members: [...set.members], children };
  if (!added.length) return freezeSet(rebuilt);
  return union(freezeSet(rebuilt), freezeSet({ members: added.sort(comparePE), children: [] }));
}

const freezeSet = (s: FieldSet): FieldSet =>
  s.members.length === 0 && s.children.length === 0
    ? EMPTY_SET
    : Object.freeze({ members: Object.freeze([...s.members]), children: Object.freeze(s.children.map((c) => Object.freeze({ ...c }))) });
