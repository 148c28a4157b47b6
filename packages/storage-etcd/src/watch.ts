import {
  newCompactedError,
  newInternalError,
  newUnreachableError,
  type KeyValue,
  type StorageWatch,
  type StorageWatchEvent,
  type WatchHandlers,
} from '@kapi/storage';
import type { EtcdClient } from './client.js';
import { fromGrpcError } from './errors.js';
import type { KeySpace } from './keys.js';
import type { EtcdEvent, EtcdKeyValue, WatchResponse } from './messages.js';

export interface WatchContext {
  client: EtcdClient;
  keys: KeySpace;
  /** Told the compacted revision whenever etcd reports one. */
  sawCompaction(revision: number): void;
}

/** The running watches of one backend, so `close()` can end them. */
export class EtcdWatches {
  private readonly running = new Set<(error: Error) => void>();

  constructor(private readonly ctx: WatchContext) {}

  /**
   * One etcd watch stream per Kapi watch: created from `afterRevision + 1` with prevKv and progress
   * notifications. Events arrive from the network, so never inside a write call, and in revision order (etcd's
   * guarantee). The watch ends with onError when the stream breaks (Unreachable: clients re-watch), when etcd
   * cancels it (Compacted when its history is gone), or when onEvent throws.
   */
  start(prefix: string, afterRevision: number, handlers: WatchHandlers): StorageWatch {
    const { client, keys } = this.ctx;
    const range = keys.rangeOf(prefix);
    const stream = client.watchStream();
    let open = true;

    const finish = (error?: Error) => {
      if (!open) return;
      open = false;
      this.running.delete(fail);
      stream.cancel();
      if (!error) return;
      try {
        handlers.onError(error);
      } catch {
        // Nothing is left to tell.
      }
    };
    const fail = (error: Error) => finish(error);
    this.running.add(fail);

    stream.on('data', (response: WatchResponse) => {
      if (!open) return;
      if (response.compact_revision > 0) {
        this.ctx.sawCompaction(response.compact_revision);
        fail(newCompactedError(afterRevision, response.compact_revision, prefix));
        return;
      }
      if (response.canceled) {
        fail(newInternalError(`etcd canceled the watch on ${prefix}: ${response.cancel_reason || 'no reason given'}`, undefined, prefix));
        return;
      }
      if (response.events.length === 0) {
        // A progress notification (or the creation answer): everything up to header.revision was sent.
        if (!response.created) handlers.onProgress?.(response.header.revision);
        return;
      }
      for (const e of response.events) {
        let event: StorageWatchEvent;
        try {
          event = toEvent(keys, e);
        } catch (err) {
          fail(err as Error);
          return;
        }
        try {
          handlers.onEvent(event);
        } catch (err) {
          // A handler that throws is broken: stop it rather than skip events it would then miss.
          fail(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        if (!open) return;
      }
    });
    stream.on('error', (err: Error) => {
      if (!open) return;
      const error = fromGrpcError(err, prefix);
      if (error.code === 'Unreachable') client.failedOver();
      fail(error);
    });
    stream.on('end', () => fail(newUnreachableError(`etcd ended the watch stream on ${prefix}`)));

    stream.write({
      create_request: {
        key: range.key,
        range_end: range.rangeEnd,
        start_revision: afterRevision + 1,
        progress_notify: true,
        prev_kv: true,
      },
    });
    return {
      stop: () => finish(),
      // etcd answers with a progress notification once the watch is in sync (nothing when it is still behind).
      requestProgress: () => {
        if (open) stream.write({ progress_request: {} });
      },
    };
  }

  /** Ends every running watch with `error` (the backend is closing). */
  closeAll(error: Error): void {
    for (const fail of [...this.running]) fail(error);
  }
}

function toEvent(keys: KeySpace, e: EtcdEvent): StorageWatchEvent {
  const key = keys.fromEtcd(e.kv.key);
  const prevKv = e.prev_kv ? toKeyValue(key, e.prev_kv) : undefined;
  if (e.type === 'DELETE') {
    // etcd's delete event carries only the key and revision; the deleted value is the previous one. etcd leaves
    // prevKv out when the revision before the delete is compacted: that history is gone, as for a late watch.
    if (!prevKv) throw newCompactedError(e.kv.mod_revision - 1, e.kv.mod_revision, key);
    return { type: 'DELETE', kv: { ...prevKv, modRevision: e.kv.mod_revision }, prevKv, created: false };
  }
  const kv = toKeyValue(key, e.kv);
  const event: StorageWatchEvent = { type: 'PUT', kv, created: kv.createRevision === kv.modRevision };
  // An update must say what it replaced (selectors compare old and new); kube's watcher refuses it likewise.
  if (!event.created && !prevKv) throw newCompactedError(kv.modRevision - 1, kv.modRevision, key);
  if (prevKv) event.prevKv = prevKv;
  return event;
}

export function toKeyValue(key: string, kv: EtcdKeyValue): KeyValue {
  return { key, value: kv.value, createRevision: kv.create_revision, modRevision: kv.mod_revision };
}
