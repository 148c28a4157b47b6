// The label selector grammar, error for error like kube's labels.Parse:
//   <selector> ::= <requirement> | <requirement> "," <selector>
//   <requirement> ::= [!] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
import { goQuote } from '../errors/go-format.js';
import { aggregateMessages } from '../errors/field-errors.js';
import { type LabelOperator, type LabelRequirement, requirementErrors } from './label-requirement.js';
import { scan, Token, type ScannedItem } from './label-lexer.js';
import { isLabelKey } from './label-validation.js';

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';
const OPERATOR_OF: ReadonlyMap<Token, LabelOperator> = new Map<Token, LabelOperator>([
  [Token.In, 'in'],
  [Token.Equals, '='],
  [Token.DoubleEquals, '=='],
  [Token.GreaterThan, 'gt'],
  [Token.LessThan, 'lt'],
  [Token.NotIn, 'notin'],
  [Token.NotEquals, '!='],
]);

// Thrown inside the parser only, and turned into its result at the top.
interface ParseFailure {
  readonly parseFailure: string;
}
const isParseFailure = (err: unknown): err is ParseFailure =>
  typeof err === 'object' && err !== null && typeof (err as ParseFailure).parseFailure === 'string';

const fail = (message: string): never => {
  throw { parseFailure: message } satisfies ParseFailure;
};

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Parses a label selector string into requirements, in input order. Returns the kube error message on failure
 * (`unable to parse requirement: ...`, `found ',', expected: ...`).
 */
export function parseLabelRequirements(selector: string): { requirements: LabelRequirement[] } | { error: string } {
  try {
    return { requirements: parse(scan(selector)) };
  } catch (err) {
    if (isParseFailure(err)) return { error: err.parseFailure };
    throw err;
  }
}

function parse(items: ScannedItem[]): LabelRequirement[] {
  let position = 0;
  // In a values context the keywords `in` and `notin` are plain identifiers.
  const asValue = (item: ScannedItem): ScannedItem =>
    item.tok === Token.In || item.tok === Token.NotIn ? { tok: Token.Identifier, literal: item.literal } : item;
  const lookahead = (values: boolean): ScannedItem => (values ? asValue(items[position]) : items[position]);
  const consume = (values: boolean): ScannedItem => {
    const item = items[position++];
    return values ? asValue(item) : item;
  };

  const parseKeyAndInferOperator = (): { key: string; operator?: LabelOperator } => {
    let operator: LabelOperator | undefined;
    let item = consume(true);
    if (item.tok === Token.DoesNotExist) {
      operator = '!';
      item = consume(true);
    }
    if (item.tok !== Token.Identifier) fail(`found '${item.literal}', expected: identifier`);
    const keyErrs = isLabelKey(item.literal);
    // The parser validates keys with kube's nil field path, which prints as <nil>.
    if (keyErrs.length > 0) fail(`<nil>: Invalid value: ${goQuote(item.literal)}: ${keyErrs.join('; ')}`);
    const next = lookahead(true).tok;
    if ((next === Token.EndOfString || next === Token.Comma) && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  };

  const parseOperator = (): LabelOperator => {
    const item = consume(false);
    return OPERATOR_OF.get(item.tok) ?? fail(`found '${item.literal}', expected: ${BINARY_OPERATORS}`);
  };

  const parseIdentifiersList = (): Set<string> => {
    const set = new Set<string>();
    for (;;) {
      const item = consume(true);
      if (item.tok === Token.Identifier) {
        set.add(item.literal);
        const next = lookahead(true);
        if (next.tok === Token.Comma) continue;
        if (next.tok === Token.ClosedPar) return set;
        fail(`found '${next.literal}', expected: ',' or ')'`);
      } else if (item.tok === Token.Comma) {
        if (set.size === 0) set.add('');
        const next = lookahead(true).tok;
        if (next === Token.ClosedPar) {
          set.add('');
          return set;
        }
        if (next === Token.Comma) {
          // kube consumes the second comma of `,,`: what follows it must be a value or another comma
          consume(true);
          set.add('');
        }
      } else {
        fail(`found '${item.literal}', expected: ',', or identifier`);
      }
    }
  };

  const parseValues = (): Set<string> => {
    const open = consume(true);
    if (open.tok !== Token.OpenPar) fail(`found '${open.literal}' expected: '('`);
    const next = lookahead(true);
    if (next.tok === Token.Identifier || next.tok === Token.Comma) {
      const set = parseIdentifiersList();
      if (consume(true).tok !== Token.ClosedPar) fail(`found '${next.literal}', expected: ')'`);
      return set;
    }
    if (next.tok === Token.ClosedPar) {
      consume(true);
      return new Set(['']);
    }
    return fail(`found '${next.literal}', expected: ',', ')' or identifier`);
  };

  const parseExactValue = (): Set<string> => {
    const next = lookahead(true).tok;
    if (next === Token.EndOfString || next === Token.Comma) return new Set(['']);
    const item = consume(true);
    if (item.tok === Token.Identifier) return new Set([item.literal]);
    return fail(`found '${item.literal}', expected: identifier`);
  };

  const newRequirement = (key: string, operator: LabelOperator, values: string[]): LabelRequirement => {
    const errs = requirementErrors(key, operator, values);
    if (errs.length > 0) fail(aggregateMessages(errs));
    return { key, operator, values };
  };

  const parseRequirement = (): LabelRequirement => {
    const { key, operator: inferred } = parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const operator = parseOperator();
    const values = operator === 'in' || operator === 'notin' ? parseValues() : parseExactValue();
    return newRequirement(key, operator, [...values].sort(byteOrder));
  };

  const requirements: LabelRequirement[] = [];
  for (;;) {
    const item = lookahead(true);
    if (item.tok === Token.Identifier || item.tok === Token.DoesNotExist) {
      try {
        requirements.push(parseRequirement());
      } catch (err) {
        if (isParseFailure(err)) fail(`unable to parse requirement: ${err.parseFailure}`);
        throw err;
      }
      const after = consume(true);
      if (after.tok === Token.EndOfString) return requirements;
      if (after.tok === Token.Comma) {
        const next = lookahead(true);
        if (next.tok !== Token.Identifier && next.tok !== Token.DoesNotExist) fail(`found '${next.literal}', expected: identifier after ','`);
        continue;
      }
      fail(`found '${after.literal}', expected: ',' or 'end of string'`);
    } else if (item.tok === Token.EndOfString) {
      return requirements;
    } else {
      fail(`found '${item.literal}', expected: !, identifier, or 'end of string'`);
    }
  }
}
