import type { Status } from '../generated/meta/v1/index.js';
import { newInternalError } from './factories.js';
import { isStatusError } from './status-error.js';

/**
 * The Status body to send for any thrown value. A StatusError gives its own Status (a copy, with kind, apiVersion
 * and a code filled in as kube's ErrorToAPIStatus does); anything else becomes a 500 InternalError whose message is
 * the error's message only (never a stack trace).
 */
export function toStatus(err: unknown): Status {
  if (isStatusError(err)) {
    const status: Status = { ...err.status, kind: 'Status', apiVersion: 'v1' };
    if (!status.status) status.status = 'Failure';
    if (!status.code) status.code = status.status === 'Success' ? 200 : 500;
    return status;
  }
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : safeString(err);
  return newInternalError(message).status;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
