import { newBadRequest } from '../errors/factories.js';
import { escapeFieldSelectorValue, unescapeFieldSelectorValue } from './field-escape.js';

/** Field selector operators; `==` is read as `=`. */
export type FieldOperator = '=' | '!=';

/** One term of a field selector: `field=value` or `field!=value`. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/** A parsed field selector: terms ANDed together. Immutable. */
export interface ParsedFieldSelector {
  /** The terms, in kube's order (sorted by their source text). */
  readonly requirements: readonly FieldRequirement[];
  /** Whether an object with these field values is selected. A missing field has the value `''`, as in kube. */
  matches(fields: Readonly<Record<string, string | undefined>>): boolean;
  /** True when the selector has no term and so selects everything. */
  isEmpty(): boolean;
  /** The value `field` must equal, or undefined when the selector does not pin it. */
  requiresExactMatch(field: string): string | undefined;
  /** kube's string form (`metadata.name=a,spec.nodeName!=b`, values escaped). */
  toString(): string;
}

function createFieldSelector(requirements: readonly FieldRequirement[]): ParsedFieldSelector {
  const reqs = Object.freeze([...requirements]);
  return Object.freeze({
    requirements: reqs,
    matches: (fields: Readonly<Record<string, string | undefined>>) =>
      reqs.every((r) => ((fields[r.field] ?? '') === r.value) === (r.operator === '=')),
    isEmpty: () => reqs.length === 0,
    requiresExactMatch: (field: string) => reqs.find((r) => r.field === field && r.operator === '=')?.value,
    toString: () => reqs.map((r) => `${r.field}${r.operator}${escapeFieldSelectorValue(r.value)}`).join(','),
  });
}

/** The field selector that selects everything. */
export const everythingFieldSelector: ParsedFieldSelector = createFieldSelector([]);

// Splits on commas not escaped by a backslash; the backslashes stay in the terms.
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (inSlash) inSlash = false;
    else if (ch === '\\') inSlash = true;
    else if (ch === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const OPERATORS = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Parses kube's field selector syntax (`metadata.name=x`, `metadata.namespace!=y`, `a==b`, comma-joined, values
 * escaped with `\`). Throws a 400 BadRequest StatusError with kube's message (`invalid selector: 'x'; can't
 * understand 'x'`). Which fields a resource supports is the caller's concern.
 */
export function parseFieldSelector(selector: string): ParsedFieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const part of splitTerms(selector).sort(byteOrder)) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw newBadRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    const unescaped = unescapeFieldSelectorValue(term.rhs);
    if ('error' in unescaped) throw newBadRequest(unescaped.error);
    requirements.push({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value: unescaped.value });
  }
  return createFieldSelector(requirements);
}

/** A field selector requiring `field=value` for every entry of `set`; empty selects everything. */
export function fieldSelectorFromSet(set: Readonly<Record<string, string>>): ParsedFieldSelector {
  return createFieldSelector(Object.entries(set).map(([field, value]) => ({ field, operator: '=', value })));
}
