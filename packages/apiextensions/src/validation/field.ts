// kube's field.Path and field.Error constructors, as this package's validation names them (@kapi/apimachinery's).
import { fieldNotSupported, type FieldError } from '@kapi/apimachinery';

export {
  fieldChild as child,
  fieldDuplicate as duplicate,
  fieldForbidden as forbidden,
  fieldIndex as index,
  fieldInternal as internalError,
  fieldInvalid as invalid,
  fieldKey as key,
  fieldRequired as required,
  fieldTooMany as tooMany,
} from '@kapi/apimachinery';

/** field.NotSupported: `Unsupported value: <value>: supported values: "a", "b"`. */
export const notSupported = (field: string, badValue: unknown, supported: readonly string[]): FieldError =>
  fieldNotSupported(field, badValue, supported);
