import { beyondJsonPrecision, newBadRequest, setOwn, type StatusError } from '@kapi/apimachinery';
import type { CST } from 'yaml';
import { yamlLibrary } from '../yaml-library.js';

/**
 * How deep a request body may nest objects and arrays. kube's JSON and YAML decoders stop at 10000 levels (Go's
 * stacks grow); here decoding, patching, validation and field tracking recurse on the JavaScript stack, and the
 * YAML composer overflows it below 1000 levels, so the limit sits well under that. Kubernetes objects nest about
 * 20 deep (their managed fields twice that).
 */
export const MAX_NESTING_DEPTH = 256;

/** YAML aliases a document may expand (the `yaml` package's guard against "billion laughs" documents). */
export const MAX_YAML_ALIAS_COUNT = 100;

/** The words of kube's decoders: yaml.v2 `exceeded max depth of N`, fxamacker/cbor `exceeded max nested level N`. */
export const tooDeep = (format: 'JSON' | 'YAML' | 'CBOR'): StatusError =>
  newBadRequest(`error decoding ${format}: ${format === 'CBOR' ? 'exceeded max nested level' : 'exceeded max depth of'} ${MAX_NESTING_DEPTH}`);

/**
 * Rejects a YAML text nesting deeper than {@link MAX_NESTING_DEPTH} before the `yaml` package composes it: its
 * composer recurses per level (and V8 can abort the whole process when a regular expression is first compiled
 * with the stack nearly exhausted), while its CST parser, used here, keeps an explicit stack.
 */
export function checkYamlDepth(text: string): void {
  // Each level of nesting needs one of these characters (flow brackets, block indicators, a new line).
  let bound = 1;
  for (let i = 0; i < text.length && bound <= MAX_NESTING_DEPTH; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b || c === 0x2d || c === 0x3f || c === 0x3a || c === 0x0a) bound++;
  }
  if (bound <= MAX_NESTING_DEPTH) return;
  const stack: [CST.Token | null | undefined, number][] = [];
  for (const token of new (yamlLibrary().Parser)().parse(text)) if (token.type === 'document') stack.push([token.value, 0]);
  while (stack.length) {
    const [token, depth] = stack.pop()!;
    if (!token) continue;
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > MAX_NESTING_DEPTH) throw tooDeep('YAML');
    for (const item of token.items) {
      const { key, value } = item as { key?: CST.Token | null; value?: CST.Token };
      stack.push([key, depth + 1], [value, depth + 1]);
    }
  }
}

const INT64_BOUND = 2 ** 63;
const utf8 = new TextDecoder();

/** A UTF-16 surrogate without its pair: JSON (`"\ud800"`) and YAML escapes can write one, UTF-8 cannot. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Checks a decoded JSON, YAML or CBOR body without recursing, and turns what CBOR decodes beyond JSON into JSON:
 *
 * - nesting deeper than {@link MAX_NESTING_DEPTH} (YAML aliases and CBOR can build it past a text check) is 400;
 * - numbers without a JSON value (`1e400` is Infinity; NaN) and integers beyond int64 (2^64) are 400, as kube's
 *   decoders refuse them (its JSON decoding into int64 fields, its CBOR NaN/Inf and integer overflow rules); so are
 *   integers beyond ±(2^53-1), which kube keeps but a double does not hold exactly (YAML and CBOR decode integers
 *   as bigints here; JSON texts are read by {@link checkIntegerLiterals});
 * - CBOR bigints within int64 become numbers, byte strings become strings, undefined becomes null (kube's CBOR
 *   decoding into unstructured values); any other non-JSON value is 400;
 * - a lone UTF-16 surrogate in a string or key is U+FFFD in JSON (Go's encoding/json reads `"\ud800"` so) and
 *   400 in YAML (yaml.v2 refuses surrogate escapes): otherwise a string would be stored that UTF-8 cannot carry,
 *   read back as itself in JSON and as U+FFFD in Protobuf and CBOR. (CBOR text is UTF-8 already.)
 *
 * `jsonText` is the text JSON.parse made the value from, when it did: its integer literals are checked too, as
 * JSON.parse rounds them before anything here sees them ({@link checkIntegerLiterals}).
 *
 * Returns the value (replaced when the top level itself was converted).
 */
export function checkDecoded(value: unknown, format: 'JSON' | 'YAML' | 'CBOR', jsonText?: string): unknown {
  const fail = (what: string) => newBadRequest(`error decoding ${format}: ${what}`);
  const wellFormed = (s: string): string => {
    if (!LONE_SURROGATE.test(s)) return s;
    if (format === 'YAML') throw fail('found invalid Unicode character escape code');
    return s.replace(LONE_SURROGATES, '\ufffd');
  };
  const convert = (v: unknown): unknown => {
    switch (typeof v) {
      case 'string':
        return wellFormed(v);
      case 'number':
        if (!Number.isFinite(v)) throw fail(`number ${v} has no JSON representation`);
        if (Math.abs(v) > INT64_BOUND) throw fail(`number ${v} overflows int64`);
        return v;
      case 'bigint':
        if (v >= BigInt(INT64_BOUND) || v < -BigInt(INT64_BOUND)) throw fail(`integer ${v} overflows int64`);
        if (unsafe(v)) throw fail(beyondJsonPrecision(String(v)));
        return Number(v);
      case 'undefined':
        return null;
      case 'object':
        if (v instanceof Uint8Array) return utf8.decode(v);
        if (v instanceof Map) {
          // A JSON object: string keys only, each an own property (`__proto__` included).
          const obj: Record<string, unknown> = {};
          for (const [k, item] of v) {
            if (typeof k !== 'string') throw fail(`map key ${typeof k === 'object' ? 'of a compound type' : JSON.stringify(String(k))} is not a string`);
            setOwn(obj, k, item);
          }
          return obj;
        }
        if (v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) {
          throw fail('unsupported value (only maps, arrays, strings, numbers, booleans and null are)');
        }
        return v;
      default:
        return v;
    }
  };
  const root = convert(value);
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_NESTING_DEPTH) throw tooDeep(format);
    const container = node as Record<string, unknown>;
    if (!Array.isArray(container) && Object.keys(container).some((key) => LONE_SURROGATE.test(key))) {
      // Rebuilt in order, a later key winning over an earlier one that reads the same (as Go's decoding does).
      const entries = Object.keys(container).map((key) => [key, container[key]] as const);
      for (const [key] of entries) delete container[key];
      for (const [key, child] of entries) setOwn(container, wellFormed(key), child);
    }
    for (const key of Object.keys(container)) {
      const child = container[key];
      const converted = convert(child);
      if (converted !== child) container[key] = converted;
      if (converted !== null && typeof converted === 'object') stack.push([converted, depth + 1]);
    }
  }
  if (jsonText !== undefined) checkIntegerLiterals(jsonText, format);
  return root;
}

// Integers kube would keep are refused beyond ±(2^53-1) (apimachinery's beyondJsonPrecision, as Protobuf bodies are):
// values are JavaScript numbers here, which would hold the nearest double in such an integer's place without a word.
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const unsafe = (n: bigint) => n > SAFE || n < -SAFE;

/** A run of digits as long as an integer beyond 2^53-1 (16 digits). */
const LONG_DIGITS = /[0-9]{16}/;

/**
 * Refuses (400) a JSON text holding an integer literal beyond ±(2^53-1) (see beyondJsonPrecision). Only texts with a run
 * of 16 digits are scanned, outside their strings; numbers with a fraction or an exponent are floats, as in kube.
 */
export function checkIntegerLiterals(text: string, format: 'JSON' | 'YAML' | 'CBOR'): void {
  if (!LONG_DIGITS.test(text)) return;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      const literal = text.slice(i, end);
      if (/^-?[0-9]{16,}$/.test(literal) && unsafe(BigInt(literal))) throw newBadRequest(`error decoding ${format}: ${beyondJsonPrecision(literal)}`);
      i = end - 1;
    }
  }
}

/** Digits, sign, decimal point and exponent: what a JSON number literal is made of. */
const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;
