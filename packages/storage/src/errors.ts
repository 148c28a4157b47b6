/**
 * The storage error catalog. Backends reject with these; the registry maps them to kube `Status` errors at its
 * boundary (KeyExists → 409 AlreadyExists, KeyNotFound → 404 NotFound, Conflict → 409 Conflict,
 * Compacted → 410 Expired, TooLargeRevision → 504 Timeout "Too large resource version").
 */
export type StorageErrorCode =
  | 'KeyExists'
  | 'KeyNotFound'
  | 'Conflict'
  | 'Compacted'
  | 'TooLargeRevision'
  | 'InvalidObject'
  | 'Unreachable'
  | 'Internal';

export interface StorageErrorOptions {
  /** The key (or list prefix) the failed operation was about; '' when none. */
  key?: string;
  /** For Compacted: the oldest revision still readable. */
  compactedRevision?: number;
  /** For TooLargeRevision: the backend's current revision when it gave up. */
  currentRevision?: number;
  cause?: unknown;
}

// A registry-wide brand rather than `instanceof`, so errors thrown by one copy of this package (ESM and CJS
// builds, or the bundled `testing` entry) are still recognized by another.
const brand = Symbol.for('kapi.storage.StorageError');

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  readonly key: string;
  readonly compactedRevision?: number;
  readonly currentRevision?: number;

  constructor(code: StorageErrorCode, message: string, options: StorageErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageError';
    this.code = code;
    this.key = options.key ?? '';
    if (options.compactedRevision !== undefined) this.compactedRevision = options.compactedRevision;
    if (options.currentRevision !== undefined) this.currentRevision = options.currentRevision;
    Object.defineProperty(this, brand, { value: true });
  }
}

/** Whether `err` is a {@link StorageError} (of `code`, when given). */
export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  if (typeof err !== 'object' || err === null || (err as Record<symbol, unknown>)[brand] !== true) return false;
  return code === undefined || (err as StorageError).code === code;
}

export function newKeyExistsError(key: string): StorageError {
  return new StorageError('KeyExists', `key ${key} already exists`, { key });
}

export function newKeyNotFoundError(key: string): StorageError {
  return new StorageError('KeyNotFound', `key ${key} not found`, { key });
}

export function newConflictError(key: string, detail = 'the mod revision does not match'): StorageError {
  return new StorageError('Conflict', `conflict on key ${key}: ${detail}`, { key });
}

export function newCompactedError(requestedRevision: number, compactedRevision: number, key = ''): StorageError {
  return new StorageError(
    'Compacted',
    `revision ${requestedRevision} has been compacted; the oldest available revision is ${compactedRevision}`,
    { key, compactedRevision },
  );
}

export function newTooLargeRevisionError(requestedRevision: number, currentRevision: number, key = ''): StorageError {
  return new StorageError(
    'TooLargeRevision',
    `too large resource version: requested ${requestedRevision}, current ${currentRevision}`,
    { key, currentRevision },
  );
}

export function newInvalidObjectError(key: string, detail: string): StorageError {
  return new StorageError('InvalidObject', `invalid object for key ${JSON.stringify(key)}: ${detail}`, { key });
}

export function newUnreachableError(detail: string, cause?: unknown): StorageError {
  return new StorageError('Unreachable', `storage unreachable: ${detail}`, { cause });
}

export function newInternalError(detail: string, cause?: unknown, key = ''): StorageError {
  return new StorageError('Internal', `storage internal error: ${detail}`, { key, cause });
}
