// One expression field handed to the caller's CEL check, its answer as kube's field error.
import type { FieldError } from '@kapi/apimachinery';
import { internal, invalid } from './errors.js';
import type { CheckExpression, ExpressionContext, ExpressionKind } from './options.js';

/**
 * kube's convertCELErrorToValidationError for a compile error: Invalid at the field, the expression as the bad value
 * (`badValue` when kube shows another form of it than it compiled), the compiler's message as it gives it (kube's
 * `compilation failed: ERROR: <input>:1:1: ...`, or `must evaluate to bool but got int`). A check that throws is an
 * internal error at that field, as kube reports a compiler failure.
 */
export function checkExpression(
  check: CheckExpression | undefined,
  expression: string,
  kind: ExpressionKind,
  context: ExpressionContext,
  badValue: string = expression,
): FieldError[] {
  if (!check) return [];
  let message: string | undefined;
  try {
    message = check(expression, kind, context);
  } catch (err) {
    return [internal(context.field, err instanceof Error ? err.message : String(err))];
  }
  return message === undefined ? [] : [invalid(context.field, badValue, message)];
}
