import type { Node as YamlNode } from 'yaml';
import { GO_YAML_V2, yamlLibrary } from '../../yaml-library.js';

/**
 * Field paths (kube style: `metadata.name`, `spec.containers[0].image`) that a JSON text repeats within one
 * object, in document order. JSON.parse keeps the last value silently; field validation must report them.
 */
export function duplicateJsonFields(text: string, parsed?: unknown): string[] {
  if (!mayHaveDuplicates(text, parsed)) return [];
  const found: string[] = [];
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const str = (): string => {
    const start = i;
    i = stringEnd(text, start) + 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = str();
        const child = path ? `${path}.${key}` : key;
        if (seen.has(key)) found.push(child);
        seen.add(key);
        ws();
        i++; // ':'
        value(child);
        ws();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        ws();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') {
      i = stringEnd(text, i) + 1;
    } else {
      while (i < text.length && !',}] \t\n\r'.includes(text[i])) i++;
    }
  };
  value('');
  return found;
}

/**
 * A cheap pre-check: the number of `"key":` members in the text against the number of keys JSON.parse kept.
 * Equal counts mean no duplicates, so the full scan runs only for bodies that have some. `parsed` is the text's
 * JSON.parse result when the caller has it (unchanged since).
 */
function mayHaveDuplicates(text: string, parsed?: unknown): boolean {
  let members = 0;
  let lastStringEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      lastStringEnd = i;
    } else if (c === COLON && lastStringEnd >= 0 && onlySpace(text, lastStringEnd + 1, i)) members++;
  }
  let kept = 0;
  const count = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(count);
    else if (v && typeof v === 'object') {
      kept += Object.keys(v).length;
      Object.values(v).forEach(count);
    }
  };
  try {
    count(parsed === undefined ? JSON.parse(text) : parsed);
  } catch {
    return false;
  }
  return members !== kept;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const BACKSLASH = 0x5c;

/**
 * Where the JSON string opening at `start` ends (its closing quote): the first quote after it that an even number
 * of backslashes precede. Found with indexOf, so a long value is not read a character at a time.
 */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > start && text.charCodeAt(quote - backslashes - 1) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Whether text[from, to) is JSON whitespace only. */
function onlySpace(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

/** The same for a YAML text: keys a mapping repeats, as kube's YAML decoding reports them. */
export function duplicateYamlFields(text: string): string[] {
  const { isMap, isPair, isScalar, isSeq, parseDocument } = yamlLibrary();
  const doc = parseDocument(text, { ...GO_YAML_V2, uniqueKeys: false });
  const found: string[] = [];
  const walk = (node: YamlNode | null | undefined, path: string) => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const child = path ? `${path}.${key}` : key;
        if (seen.has(key)) found.push(child);
        seen.add(key);
        walk(pair.value as YamlNode, child);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, n) => walk(item as YamlNode, `${path}[${n}]`));
    }
  };
  walk(doc.contents as YamlNode, '');
  return found;
}
