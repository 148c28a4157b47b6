import { changeEvent, type KeyValue, type StorageWatchEvent } from '@kapi/storage';

/** One row of `kapi_log` as better-sqlite3 returns it (BLOBs as Buffers). */
export interface Row {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: Buffer | null;
  old_value: Buffer | null;
}

/** A row as reads of a key's state get it: without the old value. */
export type StateRow = Omit<Row, 'old_value'>;

/** The key's value as of this row; only for rows that are not tombstones. */
export function rowKeyValue(row: StateRow): KeyValue {
  return { key: row.name, value: row.value as Buffer, createRevision: row.create_revision, modRevision: row.id };
}

/** A tombstone as the contract returns a delete: the deleted value, modRevision = the delete's revision. */
export function deletedKeyValue(row: Row): KeyValue {
  return { key: row.name, value: row.old_value as Buffer, createRevision: row.create_revision, modRevision: row.id };
}

export function rowEvent(row: Row): StorageWatchEvent {
  return changeEvent({
    revision: row.id,
    key: row.name,
    value: row.deleted ? undefined : (row.value as Buffer),
    createRevision: row.create_revision,
    prevRevision: row.prev_revision,
    prevValue: row.old_value ?? undefined,
  });
}

/**
 * The first string after every string that starts with `prefix` (etcd's prefix range end), or undefined when
 * there is none (the empty prefix). Keys are compared bytewise as UTF-8, which matches code point order.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Skip the surrogate range, which UTF-8 cannot encode.
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}
