/**
 * kube's metav1.StatusReason values. `''` is StatusReasonUnknown. The HTTP code each reason usually travels with is
 * noted; ServerTimeout is the odd one out (500, not 504).
 */
export const StatusReasons = {
  Unknown: '',
  /** 401 */
  Unauthorized: 'Unauthorized',
  /** 403 */
  Forbidden: 'Forbidden',
  /** 404 */
  NotFound: 'NotFound',
  /** 409 */
  AlreadyExists: 'AlreadyExists',
  /** 409 */
  Conflict: 'Conflict',
  /** 410 (deprecated in favour of Expired) */
  Gone: 'Gone',
  /** 422 */
  Invalid: 'Invalid',
  /** 500, the client should retry */
  ServerTimeout: 'ServerTimeout',
  /** 500 */
  StoreReadError: 'StoreReadError',
  /** 504 */
  Timeout: 'Timeout',
  /** 429 */
  TooManyRequests: 'TooManyRequests',
  /** 400 */
  BadRequest: 'BadRequest',
  /** 405 */
  MethodNotAllowed: 'MethodNotAllowed',
  /** 406 */
  NotAcceptable: 'NotAcceptable',
  /** 413 */
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  /** 415 */
  UnsupportedMediaType: 'UnsupportedMediaType',
  /** 500 */
  InternalError: 'InternalError',
  /** 410 */
  Expired: 'Expired',
  /** 503 */
  ServiceUnavailable: 'ServiceUnavailable',
} as const;

export type StatusReason = (typeof StatusReasons)[keyof typeof StatusReasons];

/** kube's metav1.CauseType values (StatusCause.reason). Field error types double as cause types. */
export const CauseTypes = {
  FieldValueNotFound: 'FieldValueNotFound',
  FieldValueRequired: 'FieldValueRequired',
  FieldValueDuplicate: 'FieldValueDuplicate',
  FieldValueInvalid: 'FieldValueInvalid',
  FieldValueNotSupported: 'FieldValueNotSupported',
  FieldValueForbidden: 'FieldValueForbidden',
  FieldValueTooLong: 'FieldValueTooLong',
  FieldValueTooMany: 'FieldValueTooMany',
  FieldValueTypeInvalid: 'FieldValueTypeInvalid',
  InternalError: 'InternalError',
  UnexpectedServerResponse: 'UnexpectedServerResponse',
  FieldManagerConflict: 'FieldManagerConflict',
  ResourceVersionTooLarge: 'ResourceVersionTooLarge',
} as const;

export type CauseType = (typeof CauseTypes)[keyof typeof CauseTypes];
