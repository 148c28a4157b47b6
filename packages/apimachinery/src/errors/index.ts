export { StatusError, isStatusError } from './status-error.js';
export { StatusReasons, CauseTypes, type StatusReason, type CauseType } from './reasons.js';
export * from './factories.js';
export * from './predicates.js';
export { toStatus } from './to-status.js';
export { fieldErrorBody, fieldErrorToCause, fieldErrorTypeText, fieldNotSupported, formatFieldError, aggregateMessages } from './field-errors.js';
export { GoValue, goFloat, goJSONEscape, goQuote, goStringMap, goStringSlice } from './go-format.js';
export {
  fieldChild,
  fieldDuplicate,
  fieldForbidden,
  fieldIndex,
  fieldInternal,
  fieldInvalid,
  fieldKey,
  fieldNotFound,
  fieldRequired,
  fieldTooLong,
  fieldTooMany,
} from './field-constructors.js';
export { goQuantityRepr } from './go-quantity.js';
