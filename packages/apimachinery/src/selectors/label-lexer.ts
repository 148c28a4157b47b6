// The label selector lexer, token for token like kube's (k8s.io/apimachinery/pkg/labels/selector.go).

export const Token = {
  Error: 0,
  EndOfString: 1,
  ClosedPar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;

export type Token = (typeof Token)[keyof typeof Token];

export interface ScannedItem {
  tok: Token;
  literal: string;
}

const KEYWORDS: Record<string, Token> = {
  ')': Token.ClosedPar,
  ',': Token.Comma,
  '!': Token.DoesNotExist,
  '==': Token.DoubleEquals,
  '=': Token.Equals,
  '>': Token.GreaterThan,
  in: Token.In,
  '<': Token.LessThan,
  '!=': Token.NotEquals,
  notin: Token.NotIn,
  '(': Token.OpenPar,
};

const tokenOf = (s: string): Token | undefined => (Object.prototype.hasOwnProperty.call(KEYWORDS, s) ? KEYWORDS[s] : undefined);
const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** Splits a selector into tokens, ending with an EndOfString token. */
export function scan(input: string): ScannedItem[] {
  const items: ScannedItem[] = [];
  let pos = 0;
  const read = (): string => (pos < input.length ? input[pos++] : '');

  const scanIdOrKeyword = (): ScannedItem => {
    let buffer = '';
    for (;;) {
      const ch = read();
      if (ch === '') break;
      if (isSpecial(ch) || isWhitespace(ch)) {
        pos--;
        break;
      }
      buffer += ch;
    }
    return { tok: tokenOf(buffer) ?? Token.Identifier, literal: buffer };
  };

  const scanSpecialSymbol = (): ScannedItem => {
    let last: ScannedItem | undefined;
    let buffer = '';
    for (;;) {
      const ch = read();
      if (ch === '') break;
      if (!isSpecial(ch)) {
        pos--;
        break;
      }
      buffer += ch;
      const tok = tokenOf(buffer);
      if (tok !== undefined) last = { tok, literal: buffer };
      else if (last) {
        pos--;
        break;
      }
    }
    return last ?? { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` };
  };

  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    let item: ScannedItem;
    if (ch === '') item = { tok: Token.EndOfString, literal: '' };
    else {
      pos--;
      item = isSpecial(ch) ? scanSpecialSymbol() : scanIdOrKeyword();
    }
    items.push(item);
    if (item.tok === Token.EndOfString) return items;
  }
}
