// kube's texts for failed rules and evaluation errors (apiextensions-apiserver schema/cel/validation.go).
import type { FieldError } from '@kapi/apimachinery';
import type { ValidationRule } from './schema.js';

/** kube's cap on an evaluated messageExpression (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
export const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

/** The rule's message if it has one, else its source: how kube names a rule in error texts. */
export function ruleErrorString(rule: ValidationRule): string {
  return rule.message && rule.message.length > 0 ? rule.message.trim() : rule.rule.trim();
}

/** The detail of a failed rule without a (usable) messageExpression: its message, or `failed rule: <rule>`. */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  return rule.message && rule.message.length > 0 ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
}

/** The error of a failed rule, typed by its `reason` as kube's fieldErrorForReason. */
export function fieldErrorForReason(field: string, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return { type: 'FieldValueForbidden', field, message: detail };
    case 'FieldValueRequired':
      return { type: 'FieldValueRequired', field, message: detail };
    case 'FieldValueDuplicate':
      return { type: 'FieldValueDuplicate', field, message: '', badValue: value };
    default:
      return { type: 'FieldValueInvalid', field, message: detail, badValue: value };
  }
}

/** An evaluation error's text as cel-go words it (@bufbuild/cel's words differ for a few). */
export function celErrorText(message: string): string {
  const noKey = /^field not found: (.*)$/.exec(message);
  if (noKey) return `no such key: ${noKey[1]}`;
  const index = /^index (-?\d+) out of bounds/.exec(message);
  if (index) return `index out of bounds: ${index[1]}`;
  if (/^u?int divide by zero$/.test(message)) return 'division by zero';
  if (/^u?int modulus by zero$/.test(message)) return 'modulus by zero';
  if (/^u?int overflow/.test(message)) return 'integer overflow';
  return message;
}

/** kube's detail of a rule whose evaluation failed. */
export function evaluationErrorDetail(message: string, rule: ValidationRule): string {
  const text = celErrorText(message);
  if (text.startsWith('found no matching overload') || text.startsWith('unbound function')) {
    return `'no such overload: ${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`;
  }
  return `${text} evaluating rule: ${ruleErrorString(rule)}`;
}

/** kube's check of an evaluated messageExpression: the trimmed message, or why it cannot be used. */
export function checkEvaluatedMessage(value: unknown): { message: string } | { problem: string } {
  if (typeof value !== 'string') return { problem: 'messageExpression failed to convert to string' };
  const trimmed = value.trim();
  if (Buffer.byteLength(trimmed) > MAX_MESSAGE_EXPRESSION_BYTES) {
    return { problem: `messageExpression beyond allowable length of ${MAX_MESSAGE_EXPRESSION_BYTES}` };
  }
  if (/\n/.test(trimmed)) return { problem: 'messageExpression should not contain line breaks' };
  if (trimmed.length === 0) return { problem: 'messageExpression should evaluate to a non-empty string' };
  return { message: trimmed };
}
