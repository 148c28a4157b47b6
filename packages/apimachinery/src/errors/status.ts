import type { Status, StatusCause, StatusDetails } from '../generated/meta/v1/index.js';
import type { StatusReason } from './reasons.js';

/** The parts of StatusDetails a factory may set; empty values are left out as kube's JSON omits them. */
export interface DetailsInput {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** StatusDetails in kube's JSON field order, without the empty (omitempty) fields. */
export function details(input: DetailsInput): StatusDetails {
  const out: StatusDetails = {};
  if (input.name) out.name = input.name;
  if (input.group) out.group = input.group;
  if (input.kind) out.kind = input.kind;
  if (input.uid) out.uid = input.uid;
  if (input.causes && input.causes.length > 0) out.causes = input.causes;
  if (input.retryAfterSeconds) out.retryAfterSeconds = input.retryAfterSeconds;
  return out;
}

/** A Failure Status in kube's JSON field order; `details` is left out when undefined (a nil pointer in Go). */
export function failureStatus(code: number, reason: StatusReason, message: string, statusDetails?: StatusDetails): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message) status.message = message;
  if (reason) status.reason = reason;
  if (statusDetails) status.details = statusDetails;
  status.code = code;
  return status;
}
