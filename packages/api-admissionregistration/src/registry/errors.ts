// kube's field.Error constructors as this package's validation names them (@kapi/apimachinery's).
import { fieldNotSupported, type FieldError } from '@kapi/apimachinery';

export {
  fieldDuplicate as duplicate,
  fieldForbidden as forbidden,
  fieldInternal as internal,
  fieldInvalid as invalid,
  fieldRequired as required,
  fieldTooLong as tooLong,
  fieldTooMany as tooMany,
} from '@kapi/apimachinery';

/** field.NotSupported with the supported values sorted, as kube's sets.String.List() gives them. */
export const notSupported = (field: string, badValue: unknown, supported: readonly string[]): FieldError =>
  fieldNotSupported(field, badValue, [...supported].sort());

/** `path.child` (`child` alone at the root). */
export { fieldChild as child } from '@kapi/apimachinery';
/** `path[i]` */
export const index = (path: string, i: number): string => `${path}[${i}]`;
