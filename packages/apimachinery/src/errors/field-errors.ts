import type { StatusCause } from '../generated/meta/v1/index.js';
import type { FieldError, FieldErrorType } from '../validation/types.js';
import { GoValue, goFloat, goQuote } from './go-format.js';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

// Types whose message never shows the bad value (kube's ErrorBody).
const VALUELESS = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** kube's canonical text of a field error type: `Required value`, `Invalid value`, `Unsupported value`, ... */
export function fieldErrorTypeText(type: FieldErrorType): string {
  return TYPE_TEXT[type] ?? type;
}

function formatBadValue(value: unknown): string {
  if (value === null) return goQuote('null');
  if (value instanceof GoValue) return value.text;
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
      return goFloat(value);
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      // Go prints composite values with %#v; JSON is the readable equivalent for JSON-shaped values.
      return JSON.stringify(value) ?? String(value);
  }
}

/**
 * The message of a field error without its field path, as kube's field.Error.ErrorBody():
 * `Required value`, `Invalid value: "Foo": <detail>`, `Unsupported value: "x": supported values: "a", "b"`.
 * `FieldError.message` is the detail (kube's `Detail`) and is appended after `: ` when non-empty. The bad value is
 * shown for types that show one; an undefined `badValue` shows none, `null` shows `"null"` as kube does for nil.
 */
export function fieldErrorBody(err: FieldError): string {
  let body = fieldErrorTypeText(err.type);
  if (!VALUELESS.has(err.type) && err.badValue !== undefined) body += `: ${formatBadValue(err.badValue)}`;
  if (err.message) body += `: ${err.message}`;
  return body;
}

/** `<field>: <body>`, as kube's field.Error.Error(): `spec.containers: Required value`. */
export function formatFieldError(err: FieldError): string {
  return `${err.field}: ${fieldErrorBody(err)}`;
}

/**
 * kube's utilerrors aggregate message: the single message, or `[a, b]` for several (duplicates dropped); `''` for none.
 */
export function aggregateMessages(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return '';
  if (unique.length === 1) return unique[0];
  return `[${unique.join(', ')}]`;
}

/** A field error as a StatusCause: `{reason: type, message: body, field}` (empty parts left out, as kube's JSON). */
export function fieldErrorToCause(err: FieldError): StatusCause {
  const cause: StatusCause = { reason: err.type };
  const message = fieldErrorBody(err);
  if (message) cause.message = message;
  if (err.field) cause.field = err.field;
  return cause;
}

/**
 * kube's field.NotSupported: `<field>: Unsupported value: <value>: supported values: "a", "b"` (each supported
 * value JSON-quoted, as Go quotes strings).
 */
export function fieldNotSupported(field: string, badValue: unknown, supported: readonly unknown[]): FieldError {
  return { type: 'FieldValueNotSupported', field, badValue, message: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` };
}
