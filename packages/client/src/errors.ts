/** A Kubernetes `Status` object: what an API server answers a failed request with. */
export interface Status {
  kind?: 'Status';
  apiVersion?: string;
  metadata?: { resourceVersion?: string; continue?: string };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

/** The reasons kube-apiserver gives for an HTTP code, for answers that are not a Status (a proxy's, say). */
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** A request the server refused or failed: its `Status`, with the HTTP code and the reason. */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: Status;

  constructor(status: Status, httpCode?: number) {
    // An ERROR event's Status without a code still says by its reason that the version expired.
    const code = status.code || httpCode || (status.reason === 'Expired' || status.reason === 'Gone' ? 410 : 500);
    const reason = status.reason || REASONS[code] || 'Unknown';
    super(status.message || `${code} ${reason}`);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason;
    this.status = status;
  }

  /** The error of a response that is not 2xx: its Status when it is one, else one made from the code and body. */
  static async from(res: Response): Promise<ApiError> {
    const text = await res.text().catch(() => '');
    try {
      const body = JSON.parse(text) as Status;
      if (body && body.kind === 'Status') return new ApiError(body, res.status);
    } catch {
      // not JSON: a Status is made below
    }
    return new ApiError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: res.status, message: text.trim() || res.statusText }, res.status);
  }
}

const is = (code: number, reason?: string) => (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === code && (reason === undefined || error.reason === reason);

/** 404: the object (or its namespace, or the resource) does not exist. */
export const isNotFound = is(404);
/** 409 AlreadyExists: create of a name that is taken. */
export const isAlreadyExists = is(409, 'AlreadyExists');
/** 409 Conflict: an update with a stale resourceVersion, or a conflicting apply. */
export const isConflict = is(409, 'Conflict');
/** 410: the resourceVersion asked for is older than the server keeps (watch again from a fresh list). */
export const isGone = is(410);
/** 422: the object is not valid. */
export const isInvalid = is(422);
/** 403: not allowed. */
export const isForbidden = is(403);
/** 401: no or wrong credentials. */
export const isUnauthorized = is(401);
/** 429: throttled; `status.details.retryAfterSeconds` says when to come back. */
export const isTooManyRequests = is(429);
