import type { KeyValue, StorageWatchEvent } from './types.js';

/**
 * One write, as a log-structured backend stores it (kine's row): a record per revision, a delete being a
 * tombstone (`value` undefined). The previous value is kept inline (not as a link to the previous record) so an
 * event can carry its `prevKv` after compaction dropped that record, and so retained records never pin a chain
 * of history.
 */
export interface LoggedChange {
  readonly revision: number;
  readonly key: string;
  /** The new value; undefined for a tombstone. */
  readonly value: Uint8Array | undefined;
  /** The key's create revision (for a tombstone: that of the deleted value). */
  readonly createRevision: number;
  /** Revision of the key's previous record (a value or a tombstone); 0 when none. */
  readonly prevRevision: number;
  /** The key's value before this write; undefined when it did not exist. */
  readonly prevValue: Uint8Array | undefined;
}

/**
 * The watch event of a logged write. A delete's `kv` is the deleted value at the delete's revision, and its
 * `prevKv` is always set (possibly to undefined); a put has `prevKv` only when it replaced a value.
 */
export function changeEvent(c: LoggedChange): StorageWatchEvent {
  const prevKv: KeyValue | undefined =
    c.prevValue === undefined
      ? undefined
      : { key: c.key, value: c.prevValue, createRevision: c.createRevision, modRevision: c.prevRevision };
  if (c.value === undefined) {
    return {
      type: 'DELETE',
      kv: { key: c.key, value: c.prevValue as Uint8Array, createRevision: c.createRevision, modRevision: c.revision },
      prevKv,
      created: false,
    };
  }
  const kv: KeyValue = { key: c.key, value: c.value, createRevision: c.createRevision, modRevision: c.revision };
  const event: StorageWatchEvent = { type: 'PUT', kv, created: c.createRevision === c.revision };
  if (prevKv) event.prevKv = prevKv;
  return event;
}
