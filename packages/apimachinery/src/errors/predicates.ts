import { StatusReasons, type StatusReason } from './reasons.js';
import { isStatusError } from './status-error.js';

/** The StatusReason of `err`, or `''` (Unknown) when it is not a StatusError. */
export function reasonForError(err: unknown): string {
  return isStatusError(err) ? err.reason : StatusReasons.Unknown;
}

/** Whether `err` is a StatusError with `reason`. */
export function hasReason(err: unknown, reason: StatusReason): boolean {
  return isStatusError(err) && err.reason === reason;
}

export const isNotFound = (err: unknown): boolean => hasReason(err, StatusReasons.NotFound);
export const isAlreadyExists = (err: unknown): boolean => hasReason(err, StatusReasons.AlreadyExists);
export const isConflict = (err: unknown): boolean => hasReason(err, StatusReasons.Conflict);
export const isInvalid = (err: unknown): boolean => hasReason(err, StatusReasons.Invalid);
export const isBadRequest = (err: unknown): boolean => hasReason(err, StatusReasons.BadRequest);
export const isForbidden = (err: unknown): boolean => hasReason(err, StatusReasons.Forbidden);
export const isUnauthorized = (err: unknown): boolean => hasReason(err, StatusReasons.Unauthorized);
export const isResourceExpired = (err: unknown): boolean => hasReason(err, StatusReasons.Expired);
export const isGone = (err: unknown): boolean => hasReason(err, StatusReasons.Gone);
export const isTimeout = (err: unknown): boolean => hasReason(err, StatusReasons.Timeout);
export const isInternalError = (err: unknown): boolean => hasReason(err, StatusReasons.InternalError);
