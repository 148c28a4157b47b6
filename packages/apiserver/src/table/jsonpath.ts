// The JSONPath dialect of kubectl and CRD printer columns (k8s.io/client-go/util/jsonpath), without templates:
// `.a.b`, `.a[0]`, `.a[-1]`, `.a[1:3]`, `.a[*].b`, `.*`, `..b`, `['a.b']`, `[0,2]`, `['a','b']`, escaped dots
// (`.metadata.labels.kubernetes\.io/role`) and filters (`[?(@.type=="Ready")]`, `[?(@.port>80)]`, `[?(@.x)]`).
// Missing keys are no match (AllowMissingKeys, as printer columns use it); so are indexes out of range and
// comparisons kube rejects, where kube fails the whole evaluation.

export class JSONPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JSONPathError';
  }
}

type Literal = string | number | boolean;
type Operand = { path: Step[] } | { literal: Literal };

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'index'; start?: number; end?: number; step?: number; single: boolean }
  | { kind: 'union'; branches: Step[][] }
  | { kind: 'filter'; left: Step[]; op: 'exists' | '==' | '!=' | '<' | '>' | '<=' | '>='; right?: Operand };

/** A parsed path, reusable across objects. */
export interface CompiledJSONPath {
  readonly source: string;
  readonly steps: readonly Step[];
}

const TERMINATORS = new Set([' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}']);
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;
const OPERATORS = new Set(['==', '!=', '<', '>', '<=', '>=']);

function unquote(text: string): string {
  const quote = text[0];
  let out = '';
  for (let i = 1; i < text.length - 1; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = text[++i];
    out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next === undefined ? '' : next;
  }
  if (text.length < 2 || text[text.length - 1] !== quote) throw new JSONPathError(`unterminated quoted string ${text}`);
  return out;
}

function parseOperand(text: string): Operand {
  const t = text.trim();
  if (/^(["']).*\1$/s.test(t)) return { literal: unquote(t) };
  if (t === 'true' || t === 'false') return { literal: t === 'true' };
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return { literal: Number(t) };
  return { path: parseSteps(t) };
}

function parseBracket(text: string): Step {
  const inner = text === '*' ? ':' : text;
  if (inner.includes(',')) return { kind: 'union', branches: inner.split(',').map((part) => [parseBracket(part.trim())]) };
  const quoted = /^'([^']*)'$/.exec(inner) ?? /^"([^"]*)"$/.exec(inner);
  // kube re-parses a quoted key as a dotted path; a key is taken whole here, so ['app.kubernetes.io/name'] works
  if (quoted) return { kind: 'field', name: quoted[1] };
  const m = SLICE.exec(inner);
  if (!m) throw new JSONPathError(`invalid array index ${inner}`);
  const num = (s: string | undefined): number | undefined => (s === undefined || s === '' ? undefined : Number(s));
  const start = num(m[1]);
  if (m[2] === undefined) {
    if (start === undefined) throw new JSONPathError(`invalid array index ${inner}`);
    return { kind: 'index', start, single: true };
  }
  return { kind: 'index', start, end: num(m[2].slice(1)), step: num(m[3]?.slice(1)), single: false };
}

function parseSteps(input: string): Step[] {
  const steps: Step[] = [];
  let pos = 0;
  const readField = (): void => {
    let name = '';
    while (pos < input.length && !TERMINATORS.has(input[pos])) {
      if (input[pos] === '\\' && pos + 1 < input.length) pos++;
      name += input[pos++];
    }
    steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'field', name });
  };
  while (pos < input.length) {
    const ch = input[pos];
    if (input.startsWith('[?(', pos)) {
      const start = pos + 3;
      let quote = '';
      let i = start;
      for (; i < input.length; i++) {
        const c = input[i];
        if (quote) {
          if (c === quote && input[i - 1] !== '\\') quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === ')') break;
      }
      if (i >= input.length || input[i + 1] !== ']') throw new JSONPathError('unterminated filter');
      const body = input.slice(start, i);
      pos = i + 2;
      const m = FILTER.exec(body);
      if (!m) {
        steps.push({ kind: 'filter', left: parseSteps(body.trim()), op: 'exists' });
      } else {
        if (!OPERATORS.has(m[2])) throw new JSONPathError(`unrecognized filter operator ${m[2]}`);
        steps.push({ kind: 'filter', left: parseSteps(m[1].trim()), op: m[2] as '==', right: parseOperand(m[3]) });
      }
    } else if (input.startsWith('..', pos)) {
      if (steps[steps.length - 1]?.kind === 'recursive') throw new JSONPathError('invalid multiple recursive descent');
      steps.push({ kind: 'recursive' });
      pos += 2;
      if (pos < input.length && /[\p{L}\p{N}_]/u.test(input[pos])) readField();
    } else if (ch === '.') {
      pos++;
      readField();
    } else if (ch === '[') {
      const end = input.indexOf(']', pos);
      if (end < 0) throw new JSONPathError('unterminated array');
      steps.push(parseBracket(input.slice(pos + 1, end).trim()));
      pos = end + 1;
    } else if (ch === '$' || ch === '@' || ch === ' ' || ch === '\t') {
      pos++;
    } else {
      throw new JSONPathError(`unrecognized character in action: ${JSON.stringify(ch)}`);
    }
  }
  return steps;
}

const cache = new Map<string, CompiledJSONPath>();

/** Parses a path, with or without the template braces kubectl uses (`{.status.phase}` or `.status.phase`). */
export function parseJSONPath(source: string): CompiledJSONPath {
  const hit = cache.get(source);
  if (hit) return hit;
  let text = source.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1);
  if (text.includes('{') || text.includes('}')) throw new JSONPathError(`templates are not supported: ${source}`);
  const compiled: CompiledJSONPath = Object.freeze({ source, steps: Object.freeze(parseSteps(text)) });
  if (cache.size < 1024) cache.set(source, compiled);
  return compiled;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function compare(op: string, left: unknown, right: unknown): boolean {
  const comparable = (typeof left === 'string' && typeof right === 'string') || (typeof left === 'number' && typeof right === 'number');
  if (op === '==' || op === '!=') {
    const same = typeof left === typeof right && (comparable || typeof left === 'boolean');
    if (!same) return false;
    return op === '==' ? left === right : left !== right;
  }
  if (!comparable) return false;
  const [l, r] = [left as string | number, right as string | number];
  return op === '<' ? l < r : op === '>' ? l > r : op === '<=' ? l <= r : l >= r;
}

function sliceOf(list: readonly unknown[], step: Extract<Step, { kind: 'index' }>): unknown[] {
  const len = list.length;
  const norm = (i: number) => (i < 0 ? i + len : i);
  if (step.single) {
    const i = norm(step.start!);
    return i >= 0 && i < len ? [list[i]] : [];
  }
  const from = Math.max(0, Math.min(len, norm(step.start ?? 0)));
  const to = Math.max(0, Math.min(len, norm(step.end ?? len)));
  const by = step.step && step.step > 0 ? step.step : 1;
  const out: unknown[] = [];
  for (let i = from; i < to; i += by) out.push(list[i]);
  return out;
}

function walk(values: unknown[], steps: readonly Step[]): unknown[] {
  let current = values;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || value === undefined) continue;
      switch (step.kind) {
        case 'field':
          if (step.name === '') next.push(value);
          else if (isObject(value) && Object.prototype.hasOwnProperty.call(value, step.name)) next.push(value[step.name]);
          break;
        case 'wildcard':
          if (Array.isArray(value)) next.push(...value);
          else if (isObject(value)) next.push(...Object.values(value));
          break;
        case 'recursive':
          next.push(...descendants(value));
          break;
        case 'index':
          if (Array.isArray(value)) next.push(...sliceOf(value, step));
          break;
        case 'union':
          for (const branch of step.branches) next.push(...walk([value], branch));
          break;
        case 'filter':
          if (Array.isArray(value)) next.push(...value.filter((item) => keep(item, step)));
          break;
      }
    }
    current = next;
  }
  return current;
}

// kube's recursive descent: every object or array that has children, then the same below it (leaves excluded).
function descendants(value: unknown): unknown[] {
  const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
  if (children.length === 0) return [];
  return [value, ...children.flatMap(descendants)];
}

function keep(item: unknown, step: Extract<Step, { kind: 'filter' }>): boolean {
  const lefts = walk([item], step.left);
  if (step.op === 'exists') return lefts.length > 0;
  const rights = step.right && 'literal' in step.right ? [step.right.literal] : walk([item], step.right?.path ?? []);
  if (lefts.length !== 1 || rights.length !== 1) return false;
  return compare(step.op, lefts[0], rights[0]);
}

/** Every value `path` selects in `data`, in document order; `[]` when nothing matches. Throws JSONPathError on bad syntax. */
export function evaluateJSONPath(path: string | CompiledJSONPath, data: unknown): unknown[] {
  const compiled = typeof path === 'string' ? parseJSONPath(path) : path;
  return walk([data], compiled.steps);
}
