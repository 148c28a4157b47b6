import {
  newConflictError,
  newInternalError,
  newKeyExistsError,
  newKeyNotFoundError,
  type KeyValue,
} from '@kapi/storage';
import type { Database, Transaction } from 'better-sqlite3';
import type { Queries } from './queries.js';
import { deletedKeyValue, rowKeyValue, type Row } from './rows.js';

export type WriteOp =
  | { kind: 'create'; key: string; value: Buffer }
  | { kind: 'update'; key: string; value: Buffer; expected: number }
  | { kind: 'delete'; key: string; expected?: number };

interface Pending {
  op: WriteOp;
  resolve(kv: KeyValue): void;
  reject(err: Error): void;
}

type Outcome = { row: Row; kv: KeyValue } | { error: Error };

/**
 * Group commit: writes that arrive in the same turn of the event loop are applied in one transaction, in call
 * order, and each is acknowledged (its promise settled) only after that transaction committed. A failed
 * precondition (KeyExists, Conflict, KeyNotFound) fails that write alone; a failed commit fails the whole batch
 * and writes nothing.
 */
export class GroupCommitWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly apply: Transaction<(ops: Pending[]) => Outcome[]>;

  constructor(
    db: Database,
    private readonly queries: Queries,
    private readonly state: { revision: number },
    /** Called with the committed rows, in revision order, before any write is acknowledged. */
    private readonly committed: (rows: Row[]) => void,
    private readonly maxBatch = 1000,
  ) {
    this.apply = db.transaction((ops: Pending[]) => {
      let next = this.state.revision;
      return ops.map((p) => {
        const outcome = this.applyOne(p.op, next + 1);
        if ('row' in outcome) next = outcome.row.id;
        return outcome;
      });
    });
  }

  submit(op: WriteOp): Promise<KeyValue> {
    return new Promise<KeyValue>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued now (synchronously); used by the timer and by close(). */
  flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      let outcomes: Outcome[];
      try {
        // BEGIN IMMEDIATE: the write lock is taken up front (it is ours anyway in exclusive locking mode).
        outcomes = this.apply.immediate(batch);
      } catch (err) {
        const error = newInternalError(`committing ${batch.length} writes failed: ${err instanceof Error ? err.message : String(err)}`, err);
        for (const p of batch) p.reject(error);
        continue;
      }
      const rows = outcomes.flatMap((o) => ('row' in o ? [o.row] : []));
      if (rows.length > 0) {
        this.state.revision = rows[rows.length - 1].id;
        this.committed(rows);
      }
      batch.forEach((p, i) => {
        const o = outcomes[i];
        if ('row' in o) p.resolve(o.kv);
        else p.reject(o.error);
      });
    }
  }

  /** Fails writes not committed yet (the backend is closing without being able to write). */
  rejectAll(err: Error): void {
    const queue = this.queue;
    this.queue = [];
    for (const p of queue) p.reject(err);
  }

  private applyOne(op: WriteOp, id: number): Outcome {
    const head = this.queries.headOf(op.key);
    const live = head && !head.deleted ? head : undefined;
    switch (op.kind) {
      case 'create': {
        if (live) return { error: newKeyExistsError(op.key) };
        const row = this.insert({ id, name: op.key, created: 1, deleted: 0, create_revision: id, prev_revision: head?.id ?? 0, value: op.value, old_value: null });
        return { row, kv: rowKeyValue(row) };
      }
      case 'update': {
        if (!live) return { error: newKeyNotFoundError(op.key) };
        if (live.id !== op.expected) return { error: newConflictError(op.key, `expected mod revision ${op.expected}, found ${live.id}`) };
        const row = this.insert({ id, name: op.key, created: 0, deleted: 0, create_revision: live.create_revision, prev_revision: live.id, value: op.value, old_value: live.value });
        return { row, kv: rowKeyValue(row) };
      }
      case 'delete': {
        if (!live) return { error: newKeyNotFoundError(op.key) };
        if (op.expected !== undefined && live.id !== op.expected) {
          return { error: newConflictError(op.key, `expected mod revision ${op.expected}, found ${live.id}`) };
        }
        const row = this.insert({ id, name: op.key, created: 0, deleted: 1, create_revision: live.create_revision, prev_revision: live.id, value: null, old_value: live.value });
        return { row, kv: deletedKeyValue(row) };
      }
    }
  }

  private insert(row: Row): Row {
    this.queries.insert(row);
    return row;
  }
}
