import {
  checkReadRevision,
  checkWriteArgs,
  failedWatch,
  newClosedError,
  newCompactedError,
  newConflictError,
  newKeyExistsError,
  newKeyNotFoundError,
  newTooLargeRevisionError,
  pageLimit,
  watchStartError,
  type KeyValue,
  type ListResult,
  type StorageBackend,
  type StorageWatch,
  type WatchHandlers,
  type WatchOptions,
} from '@kapi/storage';
import { EtcdClient, type EtcdTlsOptions } from './client.js';
import { fromGrpcError, isCompacted, isFutureRevision } from './errors.js';
import { KeySpace, normalizePrefix } from './keys.js';
import type { RangeResponse, TxnResponse } from './messages.js';
import { EtcdWatches, toKeyValue } from './watch.js';

export interface EtcdBackendOptions {
  /** `--etcd-servers`: the cluster's client URLs (`http://127.0.0.1:2379`). */
  endpoints: string[];
  /** `--etcd-prefix`: where Kapi's `/registry/...` keys live in etcd. Default `/registry` (kube-apiserver's). */
  prefix?: string;
  /** Client TLS for `https://` endpoints (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`). */
  tls?: EtcdTlsOptions;
  /** Deadline of each etcd request in ms; an unreachable etcd fails a request after at most this. Default 5000. */
  requestTimeoutMs?: number;
}

/**
 * A {@link StorageBackend} on an etcd v3 cluster, through etcd's gRPC API. Revisions are etcd's; create, update
 * and delete are etcd transactions comparing the key's mod revision; reads at a revision are etcd's MVCC
 * reads; watches are etcd watches (with prevKv and progress notifications); `compact` is etcd's compaction.
 * Several backends (several Kapi servers) on one cluster share one store: a write through one is seen by the
 * watches of all.
 *
 * Every request has a deadline (`requestTimeoutMs`): when etcd is unreachable, calls fail with Unreachable
 * instead of hanging, running watches end with Unreachable, and the channels reconnect on their own (within
 * about two seconds of etcd coming back).
 */
export function createEtcdBackend(options: EtcdBackendOptions): StorageBackend {
  const client = new EtcdClient({ endpoints: options.endpoints, tls: options.tls, requestTimeoutMs: options.requestTimeoutMs });
  const keys = new KeySpace(normalizePrefix(options.prefix ?? '/registry'));
  /** The highest compacted revision seen so far: compaction only moves forward, so it bounds the search. */
  let knownCompacted = 1;
  const sawCompaction = (revision: number) => {
    knownCompacted = Math.max(knownCompacted, revision);
  };
  const watches = new EtcdWatches({ client, keys, sawCompaction });
  let closed = false;

  function checkOpen(): void {
    if (closed) throw newClosedError();
  }

  function checkWrite(key: string, value?: Uint8Array): Buffer {
    checkOpen();
    checkWriteArgs(key, value);
    return keys.toEtcd(key);
  }

  function checkRevision(revision: number | undefined, key: string): number {
    checkOpen();
    return checkReadRevision(revision, key);
  }

  async function currentRevision(): Promise<number> {
    checkOpen();
    try {
      return (await client.range({ key: keys.rangeOf('/registry').key, count_only: true })).header.revision;
    } catch (err) {
      throw fromGrpcError(err);
    }
  }

  /**
   * etcd does not report its compacted revision directly: find the oldest revision a read still succeeds at
   * (a binary search between the last one seen and the current revision, a few cheap count-only reads).
   */
  async function compactedRevision(): Promise<number> {
    const readable = async (revision: number) => {
      try {
        await client.range({ key: keys.rangeOf('/registry').key, count_only: true, revision });
        return true;
      } catch (err) {
        if (isCompacted(err)) return false;
        throw fromGrpcError(err);
      }
    };
    let lo = knownCompacted;
    if (await readable(lo)) return lo;
    let hi = await currentRevision();
    // readable(hi) holds: the current revision is never compacted away.
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await readable(mid)) hi = mid;
      else lo = mid;
    }
    sawCompaction(hi);
    return hi;
  }

  /** A read's failure as a storage error, with the revisions the caller needs to act on it. */
  async function readError(err: unknown, requested: number, key: string): Promise<Error> {
    if (isCompacted(err)) return newCompactedError(requested, await compactedRevision().catch(() => knownCompacted), key);
    if (isFutureRevision(err)) return newTooLargeRevisionError(requested, await currentRevision().catch(() => 0), key);
    return fromGrpcError(err, key);
  }

  async function range(request: Parameters<EtcdClient['range']>[0], key: string): Promise<RangeResponse> {
    try {
      return await client.range(request);
    } catch (err) {
      throw await readError(err, request.revision ?? 0, key);
    }
  }

  async function txn(request: Parameters<EtcdClient['txn']>[0], key: string): Promise<TxnResponse> {
    checkOpen();
    try {
      return await client.txn(request);
    } catch (err) {
      throw fromGrpcError(err, key);
    }
  }

  /** After a failed compare: KeyNotFound when the key is gone, Conflict when it changed. */
  function refusal(key: string, expected: number | undefined, failure: TxnResponse): Error {
    const current = failure.responses[0]?.response_range?.kvs[0];
    if (!current) return newKeyNotFoundError(key);
    return newConflictError(key, `expected mod revision ${expected}, found ${current.mod_revision}`);
  }

  return {
    currentRevision,

    async get(key, opts) {
      const revision = checkRevision(opts?.revision, key);
      const etcdKey = keys.toEtcd(key);
      const res = await range({ key: etcdKey, revision }, key);
      const at = revision || res.header.revision;
      const kv = res.kvs[0];
      return kv ? { kv: toKeyValue(key, kv), revision: at } : { revision: at };
    },

    async list(opts): Promise<ListResult> {
      const revision = checkRevision(opts.revision, opts.prefix);
      const limit = pageLimit(opts.limit);
      const r = keys.rangeOf(opts.prefix, opts.startKey);
      const res = await range({ key: r.key, range_end: r.rangeEnd, limit, revision }, opts.prefix);
      const kvs = res.kvs.map((kv) => toKeyValue(keys.fromEtcd(kv.key), kv));
      // etcd's count covers the whole range at that revision, whatever the limit.
      const remaining = Math.max(0, res.count - kvs.length);
      return { kvs, revision: revision || res.header.revision, more: remaining > 0, remaining };
    },

    async count(prefix) {
      checkOpen();
      const r = keys.rangeOf(prefix);
      return (await range({ key: r.key, range_end: r.rangeEnd, count_only: true }, prefix)).count;
    },

    async create(key, value): Promise<KeyValue> {
      const etcdKey = checkWrite(key, value);
      const bytes = Buffer.from(value);
      const res = await txn(
        {
          compare: [{ result: 'EQUAL', target: 'MOD', key: etcdKey, mod_revision: 0 }],
          success: [{ request_put: { key: etcdKey, value: bytes } }],
          failure: [],
        },
        key,
      );
      if (!res.succeeded) throw newKeyExistsError(key);
      const rev = res.header.revision;
      return { key, value: bytes, createRevision: rev, modRevision: rev };
    },

    async update(key, value, expectedModRevision): Promise<KeyValue> {
      const etcdKey = checkWrite(key, value);
      const bytes = Buffer.from(value);
      // A mod revision of 0 would match a missing key in etcd's compare: never let it create one.
      const expected = Number.isInteger(expectedModRevision) && expectedModRevision > 0 ? expectedModRevision : -1;
      const res = await txn(
        {
          compare: [{ result: 'EQUAL', target: 'MOD', key: etcdKey, mod_revision: expected }],
          success: [{ request_put: { key: etcdKey, value: bytes, prev_kv: true } }],
          failure: [{ request_range: { key: etcdKey, keys_only: true } }],
        },
        key,
      );
      if (!res.succeeded) throw refusal(key, expectedModRevision, res);
      const prev = res.responses[0]?.response_put?.prev_kv;
      const rev = res.header.revision;
      return { key, value: bytes, createRevision: prev?.create_revision ?? rev, modRevision: rev };
    },

    async delete(key, expectedModRevision): Promise<KeyValue> {
      const etcdKey = checkWrite(key);
      const compare =
        expectedModRevision === undefined
          ? { result: 'GREATER' as const, target: 'CREATE' as const, key: etcdKey, create_revision: 0 }
          : {
              result: 'EQUAL' as const,
              target: 'MOD' as const,
              key: etcdKey,
              mod_revision: Number.isInteger(expectedModRevision) && expectedModRevision > 0 ? expectedModRevision : -1,
            };
      const res = await txn(
        {
          compare: [compare],
          success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }],
          failure: [{ request_range: { key: etcdKey, keys_only: true } }],
        },
        key,
      );
      if (!res.succeeded) throw refusal(key, expectedModRevision, res);
      const prev = res.responses[0]?.response_delete_range?.prev_kvs[0];
      // The compare saw the key, and nothing else runs inside the transaction.
      if (!prev) throw newKeyNotFoundError(key);
      return { ...toKeyValue(key, prev), modRevision: res.header.revision };
    },

    watch(opts: WatchOptions, handlers: WatchHandlers): StorageWatch {
      // etcd itself refuses a start revision below its compacted one, with the watch's first answer.
      const refused = watchStartError(opts, closed);
      if (refused) return failedWatch(handlers, refused);
      try {
        return watches.start(opts.prefix, opts.afterRevision, handlers);
      } catch (err) {
        return failedWatch(handlers, err as Error);
      }
    },

    async compact(rev) {
      checkOpen();
      try {
        await client.compact(rev);
        sawCompaction(rev);
      } catch (err) {
        // At or below the compacted revision etcd answers "compacted": nothing to do, as the contract says.
        if (isCompacted(err)) return;
        if (isFutureRevision(err)) throw newTooLargeRevisionError(rev, await currentRevision().catch(() => 0));
        throw fromGrpcError(err);
      }
    },

    async compactedRevision() {
      checkOpen();
      return compactedRevision();
    },

    async sizeBytes() {
      checkOpen();
      try {
        return (await client.status()).dbSize;
      } catch (err) {
        throw fromGrpcError(err);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      watches.closeAll(newClosedError());
      client.close();
    },
  };
}
