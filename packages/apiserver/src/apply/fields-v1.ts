// The FieldsV1 encoding of a FieldSet (managedFields[].fieldsV1), as structured-merge-diff writes and reads it:
// keys in path-element order, `.` first when an element is both a member and has children, `{}` for a member leaf.
import { EMPTY_SET, SetBuilder, type FieldSet } from './field-set.js';
import { goJsonString } from './go-json.js';
import { comparePE, parsePE, PathElementSyntaxError, serializePE, type PathElement } from './path-element.js';

/** Visits a set's entries in serialization order: [key, member?, child set?]. */
function entries(s: FieldSet, includeSelf: boolean, out: (key: string, member: boolean, child: FieldSet | undefined) => void): void {
  if (includeSelf && (s.members.length > 0 || s.children.length > 0)) out('.', true, undefined);
  let mi = 0;
  let ci = 0;
  while (mi < s.members.length || ci < s.children.length) {
    const m = s.members[mi];
    const c = s.children[ci];
    const cmp = m === undefined ? 1 : c === undefined ? -1 : comparePE(m, c.pe);
    if (cmp < 0) {
      out(serializePE(m!), true, undefined);
      mi++;
    } else if (cmp > 0) {
      out(serializePE(c!.pe), false, c!.set);
      ci++;
    } else {
      out(serializePE(c!.pe), true, c!.set);
      mi++;
      ci++;
    }
  }
}

/** The fieldsV1 object of a set (`{"f:spec":{"f:replicas":{}}}`); JSON.stringify of it matches upstream's bytes
 * except that Go escapes `<`, `>` and `&` (see {@link serializeFieldsV1}). */
export function toFieldsV1(s: FieldSet): Record<string, unknown> {
  const build = (set: FieldSet, includeSelf: boolean): Record<string, unknown> => {
    const obj: Record<string, unknown> = {};
    entries(set, includeSelf, (key, member, child) => {
      obj[key] = child ? build(child, member) : {};
    });
    return obj;
  };
  return build(s, false);
}

/** The exact bytes kube stores for fieldsV1 (FieldsV1.Raw, as in Protobuf), with Go's string escaping. */
export function serializeFieldsV1(s: FieldSet): string {
  const emit = (set: FieldSet, includeSelf: boolean): string => {
    const parts: string[] = [];
    entries(set, includeSelf, (key, member, child) => {
      parts.push(`${goJsonString(key)}:${child ? emit(child, member) : '{}'}`);
    });
    return `{${parts.join(',')}}`;
  };
  return emit(s, false);
}

/** Thrown for fieldsV1 that does not decode (a non-object, or a key that is not a path element). */
export class FieldsV1Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldsV1Error';
  }
}

/**
 * A set from fieldsV1 (an object, or its JSON text). Keys of unknown element types are dropped, as upstream does;
 * an empty object is a member leaf; `.` marks the element as a member when it also has children.
 */
export function fromFieldsV1(json: unknown): FieldSet {
  let value = json;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const text = typeof value === 'string' ? value : new TextDecoder().decode(value);
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new FieldsV1Error((err as Error).message);
    }
  }
  if (value === null || value === undefined) return EMPTY_SET;
  const b = new SetBuilder();
  // Returns whether `obj` names any element below it; an entry that names none (`{}`) is a member leaf.
  const read = (obj: unknown, prefix: PathElement[]): boolean => {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new FieldsV1Error('fieldsV1 entries must be JSON objects');
    let any = false;
    for (const [key, child] of Object.entries(obj)) {
      if (key === '.') continue;
      let pe: PathElement;
      try {
        pe = parsePE(key);
      } catch (err) {
        if (err instanceof PathElementSyntaxError && err.unknown) continue;
        throw new FieldsV1Error(`parsing key as path element: ${(err as Error).message}`);
      }
      any = true;
      const path = [...prefix, pe];
      const hasChildren = read(child, path);
      if (!hasChildren || Object.hasOwn(child as object, '.')) b.insert(path);
    }
    return any;
  };
  read(value, []);
  return b.build();
}
