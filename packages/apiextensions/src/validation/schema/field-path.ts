// kube's cel.ValidFieldPath: a JSON path (`.spec.foo`, `.spec['a.b']`) resolved against a structural schema.
import { child, key } from '../field.js';
import { isObject } from '../json.js';
import type { JSONSchema } from '../types.js';
import { additionalPropertiesSchema, hasAdditionalProperties, properties } from './nodes.js';

export interface FoundField {
  /** kube's field.Path of the field, as text (`spec.foo`, `spec[key]`). */
  path: string;
  /** The first step of the path as text (`spec`, or `[key]` for a map entry). */
  root: string;
  /** The schema at the path; undefined under `additionalProperties: true`. */
  schema: JSONSchema | undefined;
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): string | Error {
  let err: Error | undefined;
  const out = s.replace(/\\[\s\S]/g, (m) => {
    const r = ESCAPES[m[1]];
    if (r === undefined) err ??= new Error(`invalid escape char ${m}`);
    return r ?? '';
  });
  return err ?? out;
}

// The scanner's tokens: '.', '[', ']' alone; a single-quoted string whole; any other text up to a delimiter.
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      tokens.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j])) j++;
      tokens.push(path.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

/**
 * The field a JSON path names in the schema, or kube's reason it names none (`does not refer to a valid field`,
 * `expected [ or . but got: x`, `array notation is not allowed`, ...).
 */
export function validFieldPath(jsonPath: string, root: JSONSchema | undefined, allowArrayNotation: boolean): FoundField | string {
  let schema = root;
  let path = '';
  let first = '';
  const step = (name: string): string | undefined => {
    if (!isObject(schema)) return 'does not refer to a valid field';
    const props = Object.fromEntries(properties(schema));
    const named = Object.keys(props).length > 0;
    if (!named && !hasAdditionalProperties(schema)) return 'does not refer to a valid field';
    const next = named ? child(path, name) : key(path, name);
    if (!path) first = named ? name : `[${name}]`;
    path = next;
    if (named) {
      if (!props[name]) return 'does not refer to a valid field';
      schema = props[name];
    } else {
      schema = additionalPropertiesSchema(schema);
    }
    return undefined;
  };
  const tokens = tokenize(jsonPath);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === '[') {
      if (!allowArrayNotation) return 'array notation is not allowed';
      const quoted = tokens[++i];
      if (quoted === undefined) return 'unexpected end of JSON path';
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") return `expected single quoted string but got ${quoted}`;
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if (name instanceof Error) return `invalid string literal: ${name.message}`;
      const err = step(name);
      if (err) return err;
      const close = tokens[++i];
      if (close === undefined) return 'unexpected end of JSON path';
      if (close !== ']') return `expected ] but got ${close}`;
    } else if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return 'unexpected end of JSON path';
      const err = step(name);
      if (err) return err;
    } else {
      return `expected [ or . but got: ${tok}`;
    }
  }
  return { path, root: first, schema };
}
