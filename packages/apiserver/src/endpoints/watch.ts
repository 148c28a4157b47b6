import { newResourceExpired, toStatus, type KubeObject } from '@kapi/apimachinery';
import type { StorageWatchEvent } from '@kapi/storage';
import { decodeFromStorage } from '../registry/codec.js';
import { listObjects, selects, type ListOptions } from '../registry/list.js';
import { collectionPrefix } from '../registry/resources.js';
import type { RequestContext, Store } from '../registry/store.js';
import type { WatchEncoder } from './watch-framing.js';

export interface WatchRequest {
  ctx: RequestContext;
  options: ListOptions;
  /** Single-object watch (`/pods/NAME?watch=1`, or fieldSelector=metadata.name=NAME). */
  name?: string;
  timeoutSeconds?: number;
  signal: AbortSignal;
  /** Turns an event's object into what the client asked for (the object itself, or a Table row). */
  renderObject(obj: KubeObject, first: boolean): unknown;
  /** Frames events in the negotiated media type. */
  encoder: WatchEncoder;
}

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'ERROR';

/**
 * A watch as a stream of events framed per media type (spec "Watch and list-then-watch"): with resourceVersion
 * unset or "0" it opens with synthetic ADDED events for the current state, then every later change under the
 * collection that the selectors let through. An object that stops matching a selector is sent as DELETED, and
 * one that starts matching as ADDED, as kube's watch cache does.
 */
export async function startWatch(store: Store, req: WatchRequest): Promise<ReadableStream<Uint8Array>> {
  const { ctx, options } = req;
  const { entry } = ctx;
  const prefix = collectionPrefix(entry, ctx.namespace);
  const matches = (obj: KubeObject) =>
    selects(entry, options, obj) && (!req.name || (obj.metadata as { name?: string }).name === req.name);

  let initial: KubeObject[] = [];
  let after: number;
  const rv = options.resourceVersion;
  if (!rv || rv === '0') {
    const list = await listObjects(store, ctx, { ...options, limit: 0, continueToken: '', resourceVersion: '', resourceVersionMatch: '' });
    initial = list.items.filter(matches);
    after = Number((list.metadata as { resourceVersion: string }).resourceVersion);
  } else {
    after = Number(rv);
    if (!Number.isSafeInteger(after) || after < 0) throw newResourceExpired(`too old resource version: ${rv}`);
  }

  let first = true;
  const frame = (type: EventType, obj: unknown) => {
    const object = type === 'ERROR' ? obj : req.renderObject(obj as KubeObject, first);
    first = false;
    return req.encoder.encode(type, object);
  };

  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        stop();
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const timer = req.timeoutSeconds ? setTimeout(close, req.timeoutSeconds * 1000) : undefined;
      req.signal.addEventListener('abort', close, { once: true });
      for (const obj of initial) controller.enqueue(frame('ADDED', obj));
      const watch = store.storage.watch(
        { prefix, afterRevision: after },
        {
          onEvent(event: StorageWatchEvent) {
            if (closed) return;
            const obj = decodeFromStorage(event.kv);
            const prev = event.prevKv ? decodeFromStorage(event.prevKv) : undefined;
            const now = event.type === 'PUT' && matches(obj);
            const before = !!prev && matches(prev);
            let type: EventType | undefined;
            if (event.type === 'DELETE') type = before || matches(obj) ? 'DELETED' : undefined;
            else if (now) type = before && !event.created ? 'MODIFIED' : 'ADDED';
            else if (before) type = 'DELETED';
            if (type) controller.enqueue(frame(type, obj));
          },
          onError(error: Error) {
            if (closed) return;
            const code = (error as { code?: string }).code;
            const status = code === 'Compacted' ? toStatus(newResourceExpired(`too old resource version: ${rv}`)) : toStatus(error);
            controller.enqueue(frame('ERROR', status));
            close();
          },
        },
      );
      stop = () => watch.stop();
    },
    cancel() {
      stop();
    },
  });
}
