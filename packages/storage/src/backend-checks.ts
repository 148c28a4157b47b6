// The argument checks the contract asks of every backend, written once so that all of them answer a bad call
// with the same storage error (the conformance suite asserts these answers for each backend).
import { newCompactedError, newInvalidObjectError, newUnreachableError, type StorageError } from './errors.js';
import type { StorageWatch, WatchHandlers, WatchOptions } from './types.js';

/** What every call on a closed backend fails with, and what its running watches end with. */
export function newClosedError(): StorageError {
  return newUnreachableError('the backend is closed');
}

/** Throws InvalidObject for a key that is not a non-empty string, or a value (when given) that is not bytes. */
export function checkWriteArgs(key: string, value?: Uint8Array): void {
  if (typeof key !== 'string' || key === '') throw newInvalidObjectError(String(key), 'the key must be a non-empty string');
  if (value !== undefined && !(value instanceof Uint8Array)) throw newInvalidObjectError(key, 'the value must be a Uint8Array');
}

/** A read's revision: 0 when none was asked for (read the current one); InvalidObject when not a whole number. */
export function checkReadRevision(revision: number | undefined, key: string): number {
  if (!revision) return 0;
  if (!Number.isInteger(revision) || revision < 0) throw newInvalidObjectError(key, `invalid revision ${revision}`);
  return revision;
}

/** A list's page size: the limit rounded down when positive, else 0 (no limit). */
export function pageLimit(limit: number | undefined): number {
  return limit && limit > 0 ? Math.floor(limit) : 0;
}

/**
 * Why a watch cannot start, or undefined when it can: the backend is closed, the revision is not a whole number,
 * or (for a backend that knows its compacted revision) the events after it are gone, as etcd refuses a start
 * revision below its compacted one.
 */
export function watchStartError(opts: WatchOptions, closed: boolean, compactedRevision?: number): StorageError | undefined {
  const after = opts.afterRevision;
  if (closed) return newClosedError();
  if (!Number.isInteger(after) || after < 0) return newInvalidObjectError(opts.prefix, `invalid watch revision ${after}`);
  if (compactedRevision !== undefined && after + 1 < compactedRevision) return newCompactedError(after, compactedRevision, opts.prefix);
  return undefined;
}

/** A watch that could not start: `onError` follows asynchronously unless it is stopped first. */
export function failedWatch(handlers: WatchHandlers, error: Error): StorageWatch {
  let open = true;
  queueMicrotask(() => {
    if (open) handlers.onError(error);
    open = false;
  });
  return { stop: () => void (open = false) };
}
