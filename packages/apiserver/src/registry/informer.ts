import type { KubeObject } from '@kapi/apimachinery';
import type { WatcherEvent } from '../storage/interfaces.js';
import { ALL_OBJECTS } from './list.js';
import type { RequestContext, Store } from './store.js';

const NOTHING = new Uint8Array(0);
/** How long a watch that ended waits before it is opened again. */
const REWATCH_MS = 1000;

/**
 * Calls `onChange` after the objects of a resource change, whoever changed them (this server, or another on the same
 * storage): the informer a controller inside the server needs to follow its configuration objects. It watches the
 * resource through the Store; calls are coalesced (one per turn of the event loop however many events came), and it
 * is called once when the watch (re)starts, since changes may have been missed. Runs until `signal` aborts. With
 * `name`, only changes of the object of that name count.
 */
export function watchChanges(store: Store, ctx: RequestContext, onChange: () => void, signal: AbortSignal, log?: (message: string) => void, name?: string): void {
  let pending = false;
  const changed = () => {
    if (pending || signal.aborted) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (!signal.aborted) onChange();
    });
  };
  const frame = (event: WatcherEvent) => {
    if (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED') return NOTHING;
    if (name === undefined || (event.object as { metadata?: { name?: unknown } }).metadata?.name === name) changed();
    return NOTHING;
  };
  keepWatching(ctx, signal, log, async () => {
    const stream = await store.watch(ctx, ALL_OBJECTS, { watchList: false, frame, signal });
    changed();
    await drain(stream);
  });
}

/** Reads a watch's stream to its end (its events are taken as they are framed). */
async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

/** Runs `session` (one watch, to its end) again a second after each end or failure, until `signal` aborts. */
function keepWatching(ctx: RequestContext, signal: AbortSignal, log: ((message: string) => void) | undefined, session: () => Promise<void>): void {
  const run = async () => {
    while (!signal.aborted) {
      try {
        await session();
      } catch (err) {
        if (!signal.aborted) log?.(`watch of ${ctx.entry.info.plural} ended: ${(err as Error).message}`);
      }
      if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, REWATCH_MS).unref());
    }
  };
  void run();
}

/** What a controller that follows every object of a resource is told (watchObjects). */
export interface ObjectEvents {
  /** Every object of the resource: at start, and again after a gap in the watch (the view before is stale). */
  reset(objects: readonly KubeObject[]): void;
  /** One change after the last reset. */
  event(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void;
}

/**
 * kube's informer for a controller inside the server: lists every object of a resource (`reset`), then watches from
 * that list's resourceVersion and tells each change (`event`). When the watch ends (storage trouble, a compacted
 * revision), it lists again after a second. Runs until `signal` aborts.
 */
export function watchObjects(store: Store, ctx: RequestContext, handler: ObjectEvents, signal: AbortSignal, log?: (message: string) => void): void {
  const frame = (event: WatcherEvent) => {
    if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') handler.event(event.type, event.object as KubeObject);
    return NOTHING;
  };
  keepWatching(ctx, signal, log, async () => {
    const list = await store.list(ctx, ALL_OBJECTS);
    if (signal.aborted) return;
    handler.reset(list.items as KubeObject[]);
    const resourceVersion = String((list.metadata as { resourceVersion?: string } | undefined)?.resourceVersion ?? '');
    await drain(await store.watch(ctx, { ...ALL_OBJECTS, resourceVersion }, { watchList: false, frame, signal }));
  });
}
