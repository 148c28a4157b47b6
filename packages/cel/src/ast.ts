// The parsed-expression types of @bufbuild/cel (cel.expr protobuf messages), named.
import type { parse } from '@bufbuild/cel';

/** A parsed CEL expression with its source info. */
export type ParsedExpr = ReturnType<typeof parse>;
/** One node of a parsed CEL expression. */
export type Expr = ParsedExpr['expr'];
/** The source info of a parsed expression (positions of nodes by id). */
export type SourceInfo = NonNullable<ParsedExpr['sourceInfo']>;

/** The children of an expression node. */
export function children(e: Expr): Expr[] {
  const k = e.exprKind;
  const out: (Expr | undefined)[] = [];
  switch (k.case) {
    case 'callExpr':
      out.push(k.value.target, ...k.value.args);
      break;
    case 'listExpr':
      out.push(...k.value.elements);
      break;
    case 'structExpr':
      for (const entry of k.value.entries) out.push(entry.keyKind.case === 'mapKey' ? entry.keyKind.value : undefined, entry.value);
      break;
    case 'selectExpr':
      out.push(k.value.operand);
      break;
    case 'comprehensionExpr':
      out.push(k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result);
      break;
    default:
      break;
  }
  return out.filter((x): x is Expr => x !== undefined);
}

/** The depth of an expression tree, computed without recursion (for trees too deep to recurse over). */
export function depth(root: Expr): number {
  let max = 0;
  const stack: [Expr, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [e, d] = stack.pop()!;
    if (d > max) max = d;
    for (const c of children(e)) stack.push([c, d + 1]);
  }
  return max;
}
