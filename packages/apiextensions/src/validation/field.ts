// kube's field.Path and field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field), over plain strings.
import { fieldNotSupported, type FieldError } from '@kapi/apimachinery';

/** `parent.name`, or `name` at the root (kube's Path.Child; a name may itself hold dots, as kube's callers pass them). */
export const child = (parent: string, ...names: string[]): string =>
  names.reduce((path, name) => (path ? `${path}.${name}` : name), parent);

/** `parent[i]` (kube's Path.Index). */
export const index = (parent: string, i: number): string => `${parent}[${i}]`;

/** `parent[key]`, unquoted (kube's Path.Key). */
export const key = (parent: string, k: string): string => `${parent}[${k}]`;

/** field.Invalid: `Invalid value: <value>: <detail>`. */
export const invalid = (field: string, badValue: unknown, message: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  badValue,
  message,
});

/** field.Required: `Required value[: <detail>]`. */
export const required = (field: string, message = ''): FieldError => ({ type: 'FieldValueRequired', field, message });

/** field.Forbidden: `Forbidden: <detail>`. */
export const forbidden = (field: string, message: string): FieldError => ({ type: 'FieldValueForbidden', field, message });

/** field.Duplicate: `Duplicate value: <value>`. */
export const duplicate = (field: string, badValue: unknown): FieldError => ({
  type: 'FieldValueDuplicate',
  field,
  badValue,
  message: '',
});

/** field.TooMany: `Too many: <actual>: must have at most <max> items`. */
export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field,
  badValue: actual,
  message: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
});

/** field.NotSupported: `Unsupported value: <value>: supported values: "a", "b"`. */
export const notSupported = (field: string, badValue: unknown, supported: readonly string[]): FieldError =>
  fieldNotSupported(field, badValue, supported);

/** field.InternalError: `Internal error: <detail>`. */
export const internalError = (field: string, message: string): FieldError => ({ type: 'InternalError', field, message });
