// kube's field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field), as FieldErrors.
import { fieldNotSupported, type FieldError } from '@kapi/apimachinery';

export const required = (field: string, message = ''): FieldError => ({ type: 'FieldValueRequired', field, message });
export const invalid = (field: string, badValue: unknown, message: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, message });
export const forbidden = (field: string, message: string): FieldError => ({ type: 'FieldValueForbidden', field, message });
export const duplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, message: '' });
export const internal = (field: string, message: string): FieldError => ({ type: 'InternalError', field, message });

/** field.TooMany: `must have at most N items` (`item` for one). */
export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field,
  badValue: actual,
  message: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
});

/** field.TooLong: the value left out, `may not be more than N bytes`. */
export const tooLong = (field: string, max: number): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  message: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`,
});

/** field.NotSupported with the supported values sorted, as kube's sets.String.List() gives them. */
export const notSupported = (field: string, badValue: unknown, supported: readonly string[]): FieldError =>
  fieldNotSupported(field, badValue, [...supported].sort());

/** `path.child` (`child` alone at the root). */
export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);
/** `path[i]` */
export const index = (path: string, i: number): string => `${path}[${i}]`;
