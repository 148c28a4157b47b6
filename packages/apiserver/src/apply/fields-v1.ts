// The FieldsV1 encoding of a FieldSet (managedFields[].fieldsV1), as structured-merge-diff writes and reads it:
// keys in path-element order, `.` first when an element is both a member and has children, `{}` for a member leaf.
import { EMPTY_SET, makeSet, memberPE, nodePE, union, type FieldSet, type SetNode } from './field-set.js';
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
  return readSet(value);
}

/**
 * The set an entry names below it, built level by level (a key's element is a member when its entry names nothing
 * below it or has `.`; a child when it names something). Keys are usually in path-element order already (the
 * encoder writes them so); otherwise they are sorted, and two keys naming one element are merged.
 */
function readSet(obj: unknown): FieldSet {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new FieldsV1Error('fieldsV1 entries must be JSON objects');
  const members: PathElement[] = [];
  const children: SetNode[] = [];
  const record = obj as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === '.') continue;
    let pe: PathElement;
    try {
      pe = parsePE(key);
    } catch (err) {
      if (err instanceof PathElementSyntaxError && err.unknown) continue;
      throw new FieldsV1Error(`parsing key as path element: ${(err as Error).message}`);
    }
    const child = record[key];
    const below = readSet(child);
    if (below === EMPTY_SET) members.push(pe);
    else {
      if (Object.hasOwn(child as object, '.')) members.push(pe);
      children.push(Object.freeze({ pe, set: below }));
    }
  }
  return makeSet(inOrder(members, memberPE, first), inOrder(children, nodePE, mergeNodes));
}

const first = <T>(a: T): T => a;
const mergeNodes = (a: SetNode, b: SetNode): SetNode => Object.freeze({ pe: a.pe, set: union(a.set, b.set) });

/** `items` sorted by path element, each element once (`merge` joins two items of one element). */
function inOrder<T>(items: T[], peOf: (t: T) => PathElement, merge: (a: T, b: T) => T): T[] {
  let sorted = true;
  for (let i = 1; i < items.length && sorted; i++) sorted = comparePE(peOf(items[i - 1]!), peOf(items[i]!)) < 0;
  if (sorted) return items;
  items.sort((a, b) => comparePE(peOf(a), peOf(b)));
  const out: T[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last !== undefined && comparePE(peOf(last), peOf(item)) === 0) out[out.length - 1] = merge(last, item);
    else out.push(item);
  }
  return out;
}
