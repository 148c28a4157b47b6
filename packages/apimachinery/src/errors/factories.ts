// One factory per kube StatusReason, with kube-apiserver's messages
// (k8s.io/apimachinery/pkg/api/errors, apiserver negotiation and storage errors).
import type { StatusCause } from '../generated/meta/v1/index.js';
import { formatGroupKind, formatGroupResource, type GroupKind, type GroupResource } from '../meta/group-version.js';
import type { FieldError } from '../validation/types.js';
import { aggregateMessages, fieldErrorToCause, formatFieldError } from './field-errors.js';
import { goQuote } from './go-format.js';
import { CauseTypes, StatusReasons } from './reasons.js';
import { details, failureStatus } from './status.js';
import { StatusError } from './status-error.js';

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** 404 NotFound: `pods "foo" not found`, `deployments.apps "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    failureStatus(404, StatusReasons.NotFound, `${formatGroupResource(gr)} ${goQuote(name)} not found`,
      details({ name, group: gr.group, kind: gr.resource })),
  );
}

/** 404 NotFound for a path the server does not serve: `the server could not find the requested resource`. */
export function newPathNotFound(): StatusError {
  return new StatusError(failureStatus(404, StatusReasons.NotFound, 'the server could not find the requested resource', {}));
}

/** 409 AlreadyExists: `pods "foo" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    failureStatus(409, StatusReasons.AlreadyExists, `${formatGroupResource(gr)} ${goQuote(name)} already exists`,
      details({ name, group: gr.group, kind: gr.resource })),
  );
}

/** 409 AlreadyExists when generateName could not find a free name; asks the client to retry. */
export function newGenerateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return new StatusError(
    failureStatus(409, StatusReasons.AlreadyExists,
      `${formatGroupResource(gr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
      details({ name, group: gr.group, kind: gr.resource, retryAfterSeconds })),
  );
}

/** 401 Unauthorized; the message defaults to `not authorized`. */
export function newUnauthorized(reason = ''): StatusError {
  return new StatusError(failureStatus(401, StatusReasons.Unauthorized, reason || 'not authorized'));
}

/** 403 Forbidden: `pods "x" is forbidden: <err>`, `pods is forbidden: <err>` without a name, `forbidden: <err>` without a resource. */
export function newForbidden(gr: GroupResource, name: string, err: unknown): StatusError {
  const why = messageOf(err);
  let message: string;
  if (!gr.group && !gr.resource) message = `forbidden: ${why}`;
  else if (!name) message = `${formatGroupResource(gr)} is forbidden: ${why}`;
  else message = `${formatGroupResource(gr)} ${goQuote(name)} is forbidden: ${why}`;
  return new StatusError(failureStatus(403, StatusReasons.Forbidden, message, details({ name, group: gr.group, kind: gr.resource })));
}

/** 409 Conflict: `Operation cannot be fulfilled on pods "x": <err>`. */
export function newConflict(gr: GroupResource, name: string, err: unknown): StatusError {
  return new StatusError(
    failureStatus(409, StatusReasons.Conflict,
      `Operation cannot be fulfilled on ${formatGroupResource(gr)} ${goQuote(name)}: ${messageOf(err)}`,
      details({ name, group: gr.group, kind: gr.resource })),
  );
}

/** 409 Conflict of server-side apply, listing the conflicting field managers as causes. */
export function newApplyConflict(causes: StatusCause[], message: string): StatusError {
  return new StatusError(failureStatus(409, StatusReasons.Conflict, message, details({ causes })));
}

/** 410 Gone (deprecated by kube in favour of {@link newResourceExpired}). */
export function newGone(message: string): StatusError {
  return new StatusError(failureStatus(410, StatusReasons.Gone, message));
}

/** 410 Expired: a resource version or continue token is too old. */
export function newResourceExpired(message: string): StatusError {
  return new StatusError(failureStatus(410, StatusReasons.Expired, message));
}

/**
 * 422 Invalid: `Pod "x" is invalid: spec.containers: Required value`, `[a, b]` for several errors, and one
 * StatusCause per field error.
 */
export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const aggregate = aggregateMessages(errs.map(formatFieldError));
  const prefix = `${formatGroupKind(gk)} ${goQuote(name)} is invalid`;
  return new StatusError(
    failureStatus(422, StatusReasons.Invalid, aggregate ? `${prefix}: ${aggregate}` : prefix,
      details({ name, group: gk.group, kind: gk.kind, causes: errs.map(fieldErrorToCause) })),
  );
}

/** 400 BadRequest with `reason` as the message. */
export function newBadRequest(reason: string): StatusError {
  return new StatusError(failureStatus(400, StatusReasons.BadRequest, reason));
}

/** 429 TooManyRequests with `message` and a retry hint (kube's NewTooManyRequests). */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(failureStatus(429, StatusReasons.TooManyRequests, message, details({ retryAfterSeconds })));
}

/** 429 TooManyRequests: `Too many requests: <message>` (kube's NewTooManyRequestsError). */
export function newTooManyRequestsError(message: string): StatusError {
  return new StatusError(failureStatus(429, StatusReasons.TooManyRequests, `Too many requests: ${message}`));
}

/** 503 ServiceUnavailable with `reason` as the message. */
export function newServiceUnavailable(reason: string): StatusError {
  return new StatusError(failureStatus(503, StatusReasons.ServiceUnavailable, reason));
}

/** 405 MethodNotAllowed: `<action> is not supported on resources of kind "pods"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return new StatusError(
    failureStatus(405, StatusReasons.MethodNotAllowed,
      `${action} is not supported on resources of kind ${goQuote(formatGroupResource(gr))}`,
      details({ group: gr.group, kind: gr.resource })),
  );
}

/** 500 ServerTimeout: `The <operation> operation against <resource> could not be completed at this time, please try again.` */
export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return new StatusError(
    failureStatus(500, StatusReasons.ServerTimeout,
      `The ${operation} operation against ${formatGroupResource(gr)} could not be completed at this time, please try again.`,
      details({ name: operation, group: gr.group, kind: gr.resource, retryAfterSeconds })),
  );
}

/** 500 InternalError: `Internal error occurred: <err>`, with the error text as the only cause. */
export function newInternalError(err: unknown): StatusError {
  const message = messageOf(err);
  return new StatusError(
    failureStatus(500, StatusReasons.InternalError, `Internal error occurred: ${message}`,
      details({ causes: [message ? { message } : {}] })),
  );
}

/** 504 Timeout: `Timeout: <message>`; details carry the retry hint (`{}` when 0, as kube). */
export function newTimeout(message: string, retryAfterSeconds = 0): StatusError {
  return new StatusError(failureStatus(504, StatusReasons.Timeout, `Timeout: ${message}`, details({ retryAfterSeconds })));
}

/** 413 RequestEntityTooLarge: `Request entity too large: <message>`. */
export function newRequestEntityTooLarge(message: string): StatusError {
  return new StatusError(failureStatus(413, StatusReasons.RequestEntityTooLarge, `Request entity too large: ${message}`));
}

/** 406 NotAcceptable: `only the following media types are accepted: application/json, ...`. */
export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError(
    failureStatus(406, StatusReasons.NotAcceptable, `only the following media types are accepted: ${accepted.join(', ')}`),
  );
}

/** 415 UnsupportedMediaType: `the body of the request was in an unknown format - accepted media types include: ...`. */
export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(
    failureStatus(415, StatusReasons.UnsupportedMediaType,
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),
  );
}

/**
 * 504 Timeout for a read at a resource version the server has not reached yet:
 * `Timeout: Too large resource version: <requested>, current: <current>`, with a ResourceVersionTooLarge cause.
 */
export function newTooLargeResourceVersion(requested: number | bigint, current: number | bigint, retryAfterSeconds: number): StatusError {
  return new StatusError(
    failureStatus(504, StatusReasons.Timeout, `Timeout: Too large resource version: ${requested}, current: ${current}`,
      details({
        causes: [{ reason: CauseTypes.ResourceVersionTooLarge, message: 'Too large resource version' }],
        retryAfterSeconds,
      })),
  );
}
