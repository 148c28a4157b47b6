// Compiling one CEL expression: parse, check against the variables' static types, meter, plan.
import { parse, plan, type CelError, type CelInput, type CelValue } from '@bufbuild/cel';
import { depth, type ParsedExpr } from './ast.js';
import { checkExpression, type CheckResult, type Issue } from './check.js';
import { instrumentComprehensions } from './cost.js';
import { estimateCost } from './estimate.js';
import { ruleEnv } from './env.js';
import { typeName, type StaticType } from './types.js';

/** A compiled expression: evaluate it with the variables bound. */
export interface Program {
  readonly source: string;
  /** Whether the expression references `oldSelf`. */
  readonly usesOldSelf: boolean;
  /** The estimated worst-case cost of one evaluation (cel-go's estimate; Infinity when unbounded). */
  readonly maxCost: number;
  eval(vars: Record<string, CelInput | CelError>): CelValue | CelError;
}

/** The outcome of compiling: a program, or kube's compile error text. */
export type CompileResult = { program: Program; error?: undefined } | { program?: undefined; error: string };

/** cel-go's issue text: `ERROR: <input>:1:6: message` and the source line with a caret under the column. */
export function formatIssues(source: string, issues: Issue[]): string {
  return issues
    .map(({ offset, message }) => {
      const chars = [...source];
      const before = chars.slice(0, offset).join('');
      const line = before.split('\n').length;
      const lineStart = before.lastIndexOf('\n') + 1;
      const column = [...before.slice(lineStart)].length;
      const text = source.split('\n')[line - 1] ?? '';
      return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${'.'.repeat(column)}^`;
    })
    .join('\n');
}

/** cel-go's parser limits. */
const MAX_CODE_POINTS = 100_000;
const MAX_RECURSION_DEPTH = 250;
const RECURSION_ISSUE = (offset = 0): Issue => ({ offset, message: `expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}` });

function parseOrIssue(source: string): ParsedExpr | Issue {
  const size = [...source].length;
  if (size > MAX_CODE_POINTS) return { offset: 0, message: `expression code point size exceeds limit: size: ${size}, limit ${MAX_CODE_POINTS}` };
  try {
    const parsed = parse(source);
    // Deeper trees would also overflow the stack of the check and the evaluation.
    if (depth(parsed.expr) > MAX_RECURSION_DEPTH) return RECURSION_ISSUE();
    return parsed;
  } catch (e) {
    if (e instanceof RangeError) return RECURSION_ISSUE();
    const err = e as Error & { location?: { start?: { offset?: number } }; rawMessage?: string };
    const detail = err.rawMessage ?? err.message.replace(/^<input>:\d+:\d+: /, '');
    const offset = err.location?.start?.offset ?? 0;
    // kube accepts optional field selection and indexing; @bufbuild/cel's parser does not.
    const optional = /^[.[]\?/.test(source.slice(offset)) || /^\?/.test(source.slice(offset + 1));
    return { offset, message: `Syntax error: ${detail}${optional ? ' (optional selection `.?` and `[?` are not supported by Kapi\'s CEL)' : ''}` };
  }
}

/** How {@link compileProgram} words its errors. */
export interface CompileWording {
  /** The prefix of issue texts (`compilation failed`). */
  issuePrefix: string;
  /** The error for a result of the wrong static type, or undefined when the type is accepted. */
  resultError(type: StaticType): string | undefined;
}

/** The parsed and checked form of an expression, or cel-go's issue text. */
export function parseAndCheck(source: string, vars: Map<string, StaticType>): { parsed: ParsedExpr; checked: CheckResult } | { issues: string } {
  const parsed = parseOrIssue(source);
  if (!('expr' in parsed)) return { issues: formatIssues(source, [parsed]) };
  const checked = checkExpression(ruleEnv(), parsed, vars);
  if (checked.issues.length > 0) return { issues: formatIssues(source, checked.issues) };
  return { parsed, checked };
}

/** Compiles `source` with the given variables, worded by `wording`; `self` sizes the cost estimate. */
export function compileProgram(source: string, vars: Map<string, StaticType>, wording: CompileWording): CompileResult & { type?: StaticType } {
  const result = parseAndCheck(source, vars);
  if ('issues' in result) return { error: `${wording.issuePrefix}: ${result.issues}` };
  const { parsed, checked } = result;
  const wrongType = wording.resultError(checked.type);
  if (wrongType !== undefined) return { error: wrongType };
  const maxCost = estimateCost(parsed.expr, checked.types, vars.get('self') ?? { k: 'dyn' });
  instrumentComprehensions(parsed.expr);
  let run: (ctx: Record<string, CelInput | CelError>) => CelValue | CelError;
  try {
    run = plan(ruleEnv(), parsed) as typeof run;
  } catch (e) {
    return { error: `program instantiation failed: ${(e as Error).message}` };
  }
  return { program: { source, usesOldSelf: checked.usesOldSelf, maxCost, eval: run }, type: checked.type };
}

/**
 * Compiles `source` with the given variables. `expect` is the type the result must have (`bool` for rules, `string`
 * for messageExpressions); kube's text for a wrong one is returned as the error.
 */
export function compileExpression(source: string, vars: Map<string, StaticType>, expect: 'bool' | 'string'): CompileResult {
  const { program, error } = compileProgram(source, vars, {
    issuePrefix: expect === 'bool' ? 'compilation failed' : 'messageExpression compilation failed',
    resultError: (t) =>
      t.k === 'dyn' || typeName(t) === expect ? undefined : expect === 'bool' ? 'cel expression must evaluate to a bool' : 'messageExpression must evaluate to a string',
  });
  return program ? { program } : { error: error! };
}
