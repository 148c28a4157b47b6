import { Backoff, sleep } from './backoff.js';
import { isGone } from './errors.js';
import type { ResourceClient } from './resource.js';
import { objectKey, Store, type IndexFunc } from './store.js';
import type { KubeObject } from './types.js';

export interface InformerOptions<T> {
  labelSelector?: string;
  fieldSelector?: string;
  /** Every this long, every cached object is handed to the update handlers again (level-triggered repair). */
  resyncPeriodMs?: number;
  /** Indexes beside `namespace` and `owner`. */
  indexers?: Record<string, IndexFunc<T>>;
  /** Objects per list page (500). */
  pageSize?: number;
  /** Where errors of the list and watch, and of handlers, go (console.error by default); the informer retries. */
  onError?: (error: unknown) => void;
}

export interface InformerHandlers<T> {
  add?: (object: T) => void;
  update?: (oldObject: T, newObject: T) => void;
  /** The object as last seen (after a relist, perhaps not its final state). */
  delete?: (object: T) => void;
}

/**
 * Keeps a cache of a resource's objects in step with the server: lists (page by page), then watches from the list's
 * resourceVersion with bookmarks, resumes a watch that ends from the last resourceVersion seen, and lists again when
 * the server says that version has expired (410), telling handlers what changed meanwhile.
 */
export class Informer<T extends KubeObject = KubeObject> {
  readonly store: Store<T>;
  private readonly handlers: InformerHandlers<T>[] = [];
  private controller?: AbortController;
  private running?: Promise<void>;
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private resyncTimer?: NodeJS.Timeout;
  /** The resourceVersion the next watch starts from. */
  lastResourceVersion?: string;
  /** How many times the informer has listed (1 + relists after 410 or errors). */
  lists = 0;
  /** 410s since the last watch that delivered events. */
  private gone = 0;

  constructor(
    readonly resource: ResourceClient<T>,
    readonly options: InformerOptions<T> = {},
  ) {
    this.store = new Store<T>(options.indexers, (error) => this.report(error));
  }

  /** Adds handlers; objects already cached are handed to `add` first. */
  on(handlers: InformerHandlers<T>): this {
    this.handlers.push(handlers);
    if (handlers.add) for (const o of this.store.list()) this.call(() => handlers.add!(o));
    return this;
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list is in the cache, or when the informer is stopped. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Starts listing and watching; idempotent. */
  start(): this {
    if (this.controller) return this;
    this.controller = new AbortController();
    this.running = this.run(this.controller.signal);
    if (this.options.resyncPeriodMs) {
      this.resyncTimer = setInterval(() => this.resync(), this.options.resyncPeriodMs);
      this.resyncTimer.unref();
    }
    return this;
  }

  /** Stops watching; the cache keeps what it has. It may be started again (it resumes from where it was). */
  async stop(): Promise<void> {
    const { controller, running } = this;
    this.controller = undefined;
    controller?.abort();
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.releaseWaiters();
    await running;
  }

  private releaseWaiters(): void {
    for (const w of this.syncWaiters.splice(0)) w();
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.report(error);
    }
  }

  private report(error: unknown): void {
    (this.options.onError ?? ((e) => console.error('informer', this.resource.path(), e)))(error);
  }

  private emitAdd(o: T) {
    for (const h of this.handlers) if (h.add) this.call(() => h.add!(o));
  }
  private emitUpdate(old: T, o: T) {
    for (const h of this.handlers) if (h.update) this.call(() => h.update!(old, o));
  }
  private emitDelete(o: T) {
    for (const h of this.handlers) if (h.delete) this.call(() => h.delete!(o));
  }

  private resync(): void {
    for (const o of this.store.list()) this.emitUpdate(o, o);
  }

  private async run(signal: AbortSignal): Promise<void> {
    // Errors back off from 800 ms; a watch that ends without an event, or a 410 that comes again at once, from 100 ms.
    const backoff = new Backoff();
    const quick = new Backoff(100, 30_000);
    const { labelSelector, fieldSelector } = this.options;
    while (!signal.aborted) {
      try {
        if (this.lastResourceVersion === undefined) await this.relist(signal);
        backoff.reset();
        // Servers end a watch after timeoutSeconds; a spread keeps many informers from reconnecting together.
        const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
        let events = 0;
        for await (const event of this.resource.watch({ resourceVersion: this.lastResourceVersion, labelSelector, fieldSelector, timeoutSeconds, signal })) {
          events++;
          const rv = event.object.metadata?.resourceVersion;
          if (event.type === 'BOOKMARK') {
            if (rv) this.lastResourceVersion = rv;
            continue;
          }
          const object = event.object as T;
          if (event.type === 'DELETED') {
            const old = this.store.delete(objectKey(object));
            this.emitDelete(old && isNewer(old, object) ? old : object);
          } else {
            const old = this.store.upsert(object);
            if (old) this.emitUpdate(old, object);
            else this.emitAdd(object);
          }
          if (rv) this.lastResourceVersion = rv;
        }
        // A watch that ended after events is resumed at once; one that ended empty, after a pause.
        if (events > 0) {
          quick.reset();
          this.gone = 0;
        }
        else await sleep(quick.next(), signal);
      } catch (error) {
        if (signal.aborted) break;
        if (isGone(error)) {
          // The version is older than the server keeps: list again (at once the first time, then backing off).
          this.lastResourceVersion = undefined;
          if (this.gone++ > 0) await sleep(quick.next(), signal);
          continue;
        }
        this.report(error);
        await sleep(backoff.next(), signal);
      }
    }
  }

  /** Lists every page and makes the cache equal to the list, telling handlers what was added, changed and removed. */
  private async relist(signal: AbortSignal): Promise<void> {
    const { labelSelector, fieldSelector, pageSize = 500 } = this.options;
    const seen = new Map<string, T>();
    let resourceVersion: string | undefined;
    // As client-go's reflector: the first list may be served from the server's watch cache (resourceVersion 0, any
    // recent state); a list after 410 asks for the latest.
    const from = this.lists === 0 ? '0' : undefined;
    for await (const page of this.resource.pages({ labelSelector, fieldSelector, limit: pageSize, resourceVersion: from, signal })) {
      for (const o of page.items) seen.set(objectKey(o), o);
      resourceVersion = page.metadata?.resourceVersion;
    }
    this.lists++;
    for (const key of this.store.keys()) {
      if (!seen.has(key)) this.emitDelete(this.store.delete(key)!);
    }
    for (const o of seen.values()) {
      const old = this.store.upsert(o);
      if (!old) this.emitAdd(o);
      else if (old.metadata?.resourceVersion !== o.metadata?.resourceVersion) this.emitUpdate(old, o);
    }
    this.lastResourceVersion = resourceVersion;
    if (!this.synced) {
      this.synced = true;
      this.releaseWaiters();
    }
  }
}

const isNewer = (a: KubeObject, b: KubeObject) => {
  const x = Number(a.metadata?.resourceVersion);
  const y = Number(b.metadata?.resourceVersion);
  return Number.isFinite(x) && Number.isFinite(y) && x > y;
};

/**
 * One informer per resource, namespace and selector, shared by every controller asking for it: one list and one
 * watch however many controllers read the same objects.
 */
export class InformerFactory {
  private readonly informers = new Map<string, Informer<any>>();

  constructor(private readonly defaults: Pick<InformerOptions<KubeObject>, 'resyncPeriodMs' | 'onError' | 'pageSize'> = {}) {}

  informer<T extends KubeObject>(resource: ResourceClient<T>, options: Omit<InformerOptions<T>, 'indexers'> = {}): Informer<T> {
    const key = `${resource.path()}?${options.labelSelector ?? ''}&${options.fieldSelector ?? ''}`;
    let informer = this.informers.get(key) as Informer<T> | undefined;
    if (!informer) {
      informer = new Informer(resource, { ...this.defaults, ...options } as InformerOptions<T>);
      this.informers.set(key, informer);
    }
    return informer;
  }

  /** Starts every informer asked for so far and waits for all to have listed. */
  async start(): Promise<void> {
    for (const i of this.informers.values()) i.start();
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
