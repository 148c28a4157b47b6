import { goQuote, goStringSlice } from '../errors/go-format.js';
import { isLabelKey, isLabelValue } from './label-validation.js';

/** kube's selection.Operator values as they appear in label selectors. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** All label operators, in the order of kube's validRequirementOperators (as its error messages list them). */
export const LABEL_OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'exists', '!', 'gt', 'lt'];

/** One term of a label selector: `key <operator> values`. `values` is empty for `exists` and `!`. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function parseInt64(s: string): bigint | undefined {
  if (!INT64.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/**
 * kube's NewRequirement checks, as formatted field errors with kube's paths (`key: Invalid value: ...`,
 * `values[0][env]: Invalid value: ...`); `[]` when the requirement is valid.
 */
export function requirementErrors(key: string, operator: string, values: readonly string[] | undefined): string[] {
  const errs: string[] = [];
  const keyErrs = isLabelKey(key);
  if (keyErrs.length > 0) errs.push(`key: Invalid value: ${goQuote(key)}: ${keyErrs.join('; ')}`);
  const vals = values ?? [];
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(`values: Invalid value: ${goStringSlice(values)}: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(`values: Invalid value: ${goStringSlice(values)}: exact-match compatibility requires one single value`);
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(`values: Invalid value: ${goStringSlice(values)}: values set must be empty for exists and does not exist`);
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(`values: Invalid value: ${goStringSlice(values)}: for 'Gt', 'Lt' operators, exactly one value is required`);
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(`values[${i}]: Invalid value: ${goQuote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
      });
      break;
    default:
      errs.push(`operator: Unsupported value: ${goQuote(operator)}: supported values: ${LABEL_OPERATORS.map((o) => goQuote(o)).join(', ')}`);
  }
  vals.forEach((v, i) => {
    const valueErrs = isLabelValue(v);
    if (valueErrs.length > 0) errs.push(`values[${i}][${key}]: Invalid value: ${goQuote(v)}: ${valueErrs.join('; ')}`);
  });
  return errs;
}

/** Whether `labels` satisfy one requirement (kube's Requirement.Matches). */
export function requirementMatches(req: LabelRequirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = has ? labels[req.key] : undefined;
  switch (req.operator) {
    case 'in':
    case '=':
    case '==':
      return has && req.values.includes(value!);
    case 'notin':
    case '!=':
      return !has || !req.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || req.values.length !== 1) return false;
      const actual = parseInt64(value!);
      const bound = parseInt64(req.values[0]);
      if (actual === undefined || bound === undefined) return false;
      return req.operator === 'gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** kube's Requirement.String(): `!a`, `a`, `a=b`, `a in (x,y)` (values sorted on output). */
export function formatRequirement(req: LabelRequirement): string {
  const op = req.operator;
  let out = op === '!' ? `!${req.key}` : req.key;
  switch (op) {
    case 'exists':
    case '!':
      return out;
    case 'in':
      out += ' in ';
      break;
    case 'notin':
      out += ' notin ';
      break;
    case 'gt':
      out += '>';
      break;
    case 'lt':
      out += '<';
      break;
    default:
      out += op;
  }
  const values = req.values.length === 1 ? req.values[0] : [...req.values].sort(byteOrder).join(',');
  return op === 'in' || op === 'notin' ? `${out}(${values})` : out + values;
}

/** Orders requirements by key, as kube sorts them (stable, by bytes). */
export function sortRequirements(reqs: readonly LabelRequirement[]): LabelRequirement[] {
  return [...reqs].sort((a, b) => byteOrder(a.key, b.key));
}
