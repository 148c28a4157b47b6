import type { Status } from '../generated/meta/v1/index.js';

/**
 * An error that is an API response: it carries the kube `Status` body the client receives. This is the only error
 * type that should reach HTTP; everything else is turned into a 500 by {@link toStatus}.
 */
export class StatusError extends Error {
  /** The Status body, as served (kind, apiVersion, status, message, reason, details, code). */
  readonly status: Status;

  constructor(status: Status) {
    super(status.message ?? '');
    this.name = 'StatusError';
    this.status = status;
  }

  /** The HTTP status code (500 when the Status has none). */
  get code(): number {
    return this.status.code ?? 500;
  }

  /** The StatusReason (`''` when unknown). */
  get reason(): string {
    return this.status.reason ?? '';
  }
}

/**
 * Whether `err` is a {@link StatusError}. Also recognises a StatusError from another copy of this package (ESM and
 * CJS builds loaded side by side), where `instanceof` fails.
 */
export function isStatusError(err: unknown): err is StatusError {
  if (err instanceof StatusError) return true;
  if (!(err instanceof Error) || err.name !== 'StatusError') return false;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'object' && status !== null && (status as { kind?: unknown }).kind === 'Status';
}
