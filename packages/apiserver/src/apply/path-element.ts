// One step of a field path, as structured-merge-diff's fieldpath.PathElement: a struct field or map key, a map-list
// element by its key fields, a set-list element by its value, or a list index (never produced here; parsed only).
import { goQuote } from '@kapi/apimachinery';
import { compareStrings, goJson, goJsonString } from './go-json.js';

/** A key field of a map-list element: name and value, the fields sorted by name. */
export type KeyField = readonly [name: string, value: unknown];

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const fieldPE = (name: string): PathElement => ({ kind: 'field', name });

/** A key path element from unsorted fields (sorted here, as upstream's KeyByFields). */
export function keyPE(fields: Iterable<KeyField>): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const typeRank = (v: unknown): number => {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5; // null
};

/** value.Compare: a total order over JSON values (numbers < strings < bools < lists < maps < null). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; ; i++) {
        if (i >= x.length && i >= y.length) return 0;
        if (i >= x.length) return -1;
        if (i >= y.length) return 1;
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
    }
    case 4: {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort(compareStrings);
      for (const k of keys) {
        if (!(k in x)) return 1;
        if (!(k in y)) return -1;
        const c = compareValues(x[k], y[k]);
        if (c !== 0) return c;
      }
      return 0;
    }
    default:
      return 0;
  }
}

/** Deep equality of JSON values (value.Equals). */
export const valuesEqual = (a: unknown, b: unknown): boolean => compareValues(a, b) === 0;

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/** PathElement.Compare: field names first, then keys, values, indexes; each in its own order. */
export function comparePE(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key': {
      const x = a.fields;
      const y = (b as typeof a).fields;
      for (let i = 0; ; i++) {
        if (i >= x.length && i >= y.length) return 0;
        if (i >= x.length) return -1;
        if (i >= y.length) return 1;
        const c = compareStrings(x[i]![0], y[i]![0]) || compareValues(x[i]![1], y[i]![1]);
        if (c !== 0) return c;
      }
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index < j ? -1 : a.index > j ? 1 : 0;
    }
  }
}

/** The fieldsV1 key of a path element: `f:name`, `k:{"name":"a"}`, `v:"x"`, `i:0`. Also a canonical identity. */
export function serializePE(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map(([n, v]) => `${goJsonString(n)}:${goJson(v)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/** Thrown for a fieldsV1 key that is not a path element; `unknown` when its type letter is not one of f, k, v, i. */
export class PathElementSyntaxError extends Error {
  constructor(message: string, readonly unknown = false) {
    super(message);
    this.name = 'PathElementSyntaxError';
  }
}

/** Parses a fieldsV1 key (DeserializePathElement). */
export function parsePE(s: string): PathElement {
  if (s.length < 2) throw new PathElementSyntaxError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementSyntaxError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldPE(body);
    case 'v':
      return { kind: 'value', value: parseJson(body) };
    case 'k': {
      const obj = parseJson(body);
      if (!isObject(obj)) throw new PathElementSyntaxError(`key must be a JSON object: ${s}`);
      return keyPE(Object.entries(obj));
    }
    case 'i': {
      if (!/^[-+]?\d+$/.test(body)) throw new PathElementSyntaxError(`invalid index: ${s}`);
      return { kind: 'index', index: Number(body) };
    }
    default:
      throw new PathElementSyntaxError('unknown path element type', true);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new PathElementSyntaxError((err as Error).message);
  }
}

/** value.ToString, as conflict paths print values: strings %q, numbers and bools %v. */
function valueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${valueString(x)}`).join('');
}

/** PathElement.String: `.name`, `[name="a",port=80]`, `[="x"]`, `[0]`. */
export function peString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([n, v]) => `${n}=${valueString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** Path.String: `.spec.template.spec.containers[name="a"].image`. */
export const pathString = (path: Path): string => path.map(peString).join('');

/** A path of field names from a dotted string (`metadata.labels`); for reset and strip sets. */
export const fieldPath = (dotted: string): Path => dotted.split('.').map(fieldPE);
