// kube's field.Path and field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field), over plain
// strings: the one set every package's hand-written validation builds its FieldErrors with.
import type { FieldError } from '../validation/types.js';

/** `parent.name`, or `name` at the root (kube's Path.Child; a name may itself hold dots, as kube's callers pass them). */
export const fieldChild = (parent: string, ...names: string[]): string => names.reduce((path, name) => (path ? `${path}.${name}` : name), parent);

/** `parent[i]` (kube's Path.Index). */
export const fieldIndex = (parent: string, i: number): string => `${parent}[${i}]`;

/** `parent[key]`, unquoted (kube's Path.Key). */
export const fieldKey = (parent: string, k: string): string => `${parent}[${k}]`;

/** field.Invalid: `Invalid value: <value>: <detail>`. */
export const fieldInvalid = (field: string, badValue: unknown, message: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, message });

/** field.Required: `Required value[: <detail>]`. */
export const fieldRequired = (field: string, message = ''): FieldError => ({ type: 'FieldValueRequired', field, message });

/** field.NotFound: `Not found: <value>`. */
export const fieldNotFound = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue, message: '' });

/** field.Forbidden: `Forbidden: <detail>`. */
export const fieldForbidden = (field: string, message: string): FieldError => ({ type: 'FieldValueForbidden', field, message });

/** field.Duplicate: `Duplicate value: <value>`. */
export const fieldDuplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, message: '' });

/** field.TooMany: `Too many: <actual>: must have at most <max> items` (`item` for one). */
export const fieldTooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field,
  badValue: actual,
  message: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
});

/** field.TooLong with the value left out: `Too long: may not be more than <max> bytes` (`byte` for one). */
export const fieldTooLong = (field: string, max: number): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  message: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`,
});

/** field.InternalError: `Internal error: <detail>`. */
export const fieldInternal = (field: string, message: string): FieldError => ({ type: 'InternalError', field, message });
