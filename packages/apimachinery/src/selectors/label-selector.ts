import { aggregateMessages } from '../errors/field-errors.js';
import { newBadRequest } from '../errors/factories.js';
import {
  formatRequirement,
  type LabelOperator,
  type LabelRequirement,
  requirementErrors,
  requirementMatches,
  sortRequirements,
} from './label-requirement.js';
import { parseLabelRequirements } from './label-parser.js';

/** A parsed label selector: requirements ANDed together. Immutable. */
export interface ParsedLabelSelector {
  /** The requirements, sorted by key as kube sorts them. */
  readonly requirements: readonly LabelRequirement[];
  /** True only for the selector that matches nothing (what a null metav1 LabelSelector means). */
  readonly matchesNothing: boolean;
  /** Whether an object with these labels is selected. Absent labels are an empty set. */
  matches(labels?: Readonly<Record<string, string>> | null): boolean;
  /** True when the selector has no requirement and so selects everything. */
  isEmpty(): boolean;
  /** The value `key` must have (`key=v`, `key==v` or `key in (v)`), or undefined when not pinned to one value. */
  requiresExactMatch(key: string): string | undefined;
  /** kube's canonical string form (`a=b,c in (x,y),!d`); `''` for everything and nothing. */
  toString(): string;
}

function createLabelSelector(requirements: readonly LabelRequirement[], matchesNothing = false): ParsedLabelSelector {
  const reqs = Object.freeze(sortRequirements(requirements));
  return Object.freeze({
    requirements: reqs,
    matchesNothing,
    matches: (labels?: Readonly<Record<string, string>> | null) =>
      !matchesNothing && reqs.every((r) => requirementMatches(r, labels ?? undefined)),
    isEmpty: () => !matchesNothing && reqs.length === 0,
    requiresExactMatch(key: string): string | undefined {
      const r = reqs.find((req) => req.key === key);
      if (!r || r.values.length !== 1) return undefined;
      return r.operator === '=' || r.operator === '==' || r.operator === 'in' ? r.values[0] : undefined;
    },
    toString: () => reqs.map(formatRequirement).join(','),
  });
}

/** The selector that selects everything (an empty selector string or `{}`). */
export const everythingLabelSelector: ParsedLabelSelector = createLabelSelector([]);

/** The selector that selects nothing. */
export const nothingLabelSelector: ParsedLabelSelector = createLabelSelector([], true);

/**
 * Parses kube's label selector syntax (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`,
 * comma-joined). Throws a 400 BadRequest StatusError with kube's message when the selector is malformed or a key or
 * value is not a valid label key or value.
 */
export function parseLabelSelector(selector: string): ParsedLabelSelector {
  const result = parseLabelRequirements(selector);
  if ('error' in result) throw newBadRequest(result.error);
  return createLabelSelector(result.requirements);
}

/**
 * One requirement, checked as kube's NewRequirement checks it. Throws a 400 BadRequest StatusError with the
 * aggregated field errors (`key: Invalid value: ...`).
 */
export function newLabelRequirement(key: string, operator: LabelOperator, values: readonly string[] = []): LabelRequirement {
  const errs = requirementErrors(key, operator, values);
  if (errs.length > 0) throw newBadRequest(aggregateMessages(errs));
  return Object.freeze({ key, operator, values: Object.freeze([...values]) });
}

/** A selector from already checked requirements. */
export function labelSelectorFromRequirements(requirements: readonly LabelRequirement[]): ParsedLabelSelector {
  return createLabelSelector(requirements);
}

/** A selector requiring every label of `set` (`key=value` each), without validation; empty selects everything. */
export function labelSelectorFromSet(set: Readonly<Record<string, string>> | undefined | null): ParsedLabelSelector {
  return createLabelSelector(Object.entries(set ?? {}).map(([key, value]) => ({ key, operator: '=', values: [value] })));
}
