// A rule's `fieldPath` (`.spec.replicas`, `.labels['app']`, `['x.y']`) resolved against the schema of the node that
// declares the rule, as kube's ValidFieldPath.
import { mapValueSchema, type StructuralSchema } from './schema.js';

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => {
    const out = ESCAPES[c];
    if (out === undefined) throw new Error(`invalid escape char \\${c}`);
    return out;
  });
}

function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j])) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/**
 * The field path that `fieldPath` names under the node of `schema` (`spec.replicas`, `labels[app]`), as kube
 * writes it; throws when it does not name a field of the schema.
 */
export function validFieldPath(fieldPath: string, schema: StructuralSchema): string {
  let result = '';
  let s: StructuralSchema | undefined = schema;
  const append = (name: string) => {
    if (s?.properties) {
      const next: StructuralSchema | undefined = Object.hasOwn(s.properties, name) ? s.properties[name] : undefined;
      if (!next) throw new Error('does not refer to a valid field');
      result = result === '' ? name : `${result}.${name}`;
      s = next;
    } else if (s && mapValueSchema(s)) {
      result = `${result}[${name}]`;
      s = mapValueSchema(s);
    } else {
      throw new Error('does not refer to a valid field');
    }
  };
  const toks = tokens(fieldPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') {
      const quoted = toks[++i];
      if (quoted === undefined) throw new Error('unexpected end of JSON path');
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") {
        throw new Error(`expected single quoted string but got ${quoted}`);
      }
      append(unescapeSingleQuote(quoted.slice(1, -1)));
      if (toks[++i] !== ']') throw new Error(`expected ] but got ${toks[i] ?? 'end of JSON path'}`);
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) throw new Error('unexpected end of JSON path');
      append(name);
    } else {
      throw new Error(`expected [ or . but got: ${tok}`);
    }
  }
  return result;
}
