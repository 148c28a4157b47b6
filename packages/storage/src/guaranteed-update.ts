import { Buffer } from 'node:buffer';
import { isStorageError, newConflictError, newKeyNotFoundError } from './errors.js';
import type { KeyValue, StorageBackend } from './types.js';

/** Returned by a `tryUpdate` to delete the key instead of writing it. */
export const DELETE: unique symbol = Symbol.for('kapi.storage.DELETE');

/** Turns stored bytes into objects and back. `decode` is called on every read; `encode` once per attempt. */
export interface StorageCodec<T> {
  /** May use `kv.modRevision` as the object's resourceVersion. */
  decode(kv: KeyValue): T;
  encode(obj: T): Uint8Array;
}

/**
 * Computes the new object from the current one (undefined when the key is missing and `ignoreNotFound` is set).
 * Called once per attempt, with fresh state after a conflict, so it must not keep side effects across calls;
 * it may mutate `current` (decoded afresh each time). Throwing aborts the update with that error.
 */
export type TryUpdate<T> = (
  current: T | undefined,
  kv: KeyValue | undefined,
) => Promise<T | typeof DELETE> | T | typeof DELETE;

export interface GuaranteedUpdateOptions {
  /** Call `tryUpdate` with undefined for a missing key and create it, instead of failing with KeyNotFound. */
  ignoreNotFound?: boolean;
  /** Attempts after the first one that lost a compare-and-swap race; then Conflict. Default 32. */
  maxRetries?: number;
}

export type GuaranteedUpdateResult<T> = { obj: T; kv: KeyValue; created: boolean } | { deleted: KeyValue };

export const DEFAULT_MAX_RETRIES = 32;

/**
 * Read-modify-write with compare-and-swap on the key's mod revision (k8s.io/apiserver's GuaranteedUpdate):
 * reads the key, calls `tryUpdate`, writes (update, create, or delete on DELETE), and starts over with fresh
 * state when another writer got there first. The returned `obj` is decoded from the stored kv, so it carries
 * the new revision. When the encoded bytes equal the stored ones nothing is written and the stored kv is
 * returned (no-op updates keep their resourceVersion, as in kube), unless the stored kv is `stale`.
 */
export async function guaranteedUpdate<T>(
  backend: StorageBackend,
  key: string,
  codec: StorageCodec<T>,
  tryUpdate: TryUpdate<T>,
  options: GuaranteedUpdateOptions = {},
): Promise<GuaranteedUpdateResult<T>> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    const { kv } = await backend.get(key);
    if (!kv && !options.ignoreNotFound) throw newKeyNotFoundError(key);
    const next = await tryUpdate(kv ? codec.decode(kv) : undefined, kv);
    try {
      if (next === DELETE) {
        if (!kv) throw newKeyNotFoundError(key);
        return { deleted: await backend.delete(key, kv.modRevision) };
      }
      const bytes = codec.encode(next);
      // A stale value (an old encryption key) is written again even unchanged: that is how a replace re-encrypts.
      if (kv && !kv.stale && sameBytes(bytes, kv.value)) return { obj: codec.decode(kv), kv, created: false };
      const written = kv ? await backend.update(key, bytes, kv.modRevision) : await backend.create(key, bytes);
      return { obj: codec.decode(written), kv: written, created: !kv };
    } catch (err) {
      if (!lostRace(err, kv)) throw err;
    }
  }
  throw newConflictError(key, `gave up after ${maxRetries + 1} attempts`);
}

/**
 * Deletes a key once `check` accepts its current value (`check` throws to refuse, e.g. on a uid or
 * resourceVersion precondition), retrying with fresh state when the key changed in between. Resolves with the
 * deleted object and kv (modRevision = the delete's revision); KeyNotFound when the key is missing.
 */
export async function deleteWithPreconditions<T>(
  backend: StorageBackend,
  key: string,
  codec: StorageCodec<T>,
  check: (current: T) => void | Promise<void>,
  options: { maxRetries?: number } = {},
): Promise<{ obj: T; deleted: KeyValue }> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    const { kv } = await backend.get(key);
    if (!kv) throw newKeyNotFoundError(key);
    const obj = codec.decode(kv);
    await check(obj);
    try {
      return { obj, deleted: await backend.delete(key, kv.modRevision) };
    } catch (err) {
      if (!lostRace(err, kv)) throw err;
    }
  }
  throw newConflictError(key, `gave up after ${maxRetries + 1} attempts`);
}

/** A write based on `read` failed only because another writer changed the key since. */
function lostRace(err: unknown, read: KeyValue | undefined): boolean {
  if (isStorageError(err, 'Conflict')) return true;
  return read ? isStorageError(err, 'KeyNotFound') : isStorageError(err, 'KeyExists');
}

/** Whether two byte strings are equal (compared natively: a stored object is kilobytes). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
