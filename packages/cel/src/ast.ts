// The parsed-expression types of @bufbuild/cel (cel.expr protobuf messages), named.
import type { parse } from '@bufbuild/cel';

/** A parsed CEL expression with its source info. */
export type ParsedExpr = ReturnType<typeof parse>;
/** One node of a parsed CEL expression. */
export type Expr = ParsedExpr['expr'];
/** The source info of a parsed expression (positions of nodes by id). */
export type SourceInfo = NonNullable<ParsedExpr['sourceInfo']>;
