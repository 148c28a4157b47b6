import type { KeyValue } from '@kapi/storage';

/**
 * Values a storage wrapper could not turn back into an object's bytes (an encrypted value no configured key
 * reads), with the reason. The wrapper hands such a value on marked instead of failing the whole read, so that
 * decoding it fails as a corrupt object does: a get is a 500 Status, a list from storage fails, and the watch
 * cache leaves it out, each exactly as for a value that is not JSON.
 */
const reasons = new WeakMap<KeyValue, string>();

/** Marks `kv` as unreadable; decodeFromStorage then throws a CorruptObjectError naming `reason`. */
export function markUnreadable(kv: KeyValue, reason: string): KeyValue {
  reasons.set(kv, reason);
  return kv;
}

/** Why `kv` could not be read, if a wrapper marked it. */
export function unreadableReason(kv: KeyValue): string | undefined {
  return reasons.get(kv);
}
