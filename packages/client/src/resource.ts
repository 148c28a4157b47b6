import { Backoff, sleep } from './backoff.js';
import type { Status } from './errors.js';
import type { Query, Transport } from './transport.js';
import type { KubeObject, ObjectList, Scale, Table, WatchEvent } from './types.js';
import { watchEvents } from './watch.js';

/**
 * A resource's address and the type of its objects. The group packages export one for each resource
 * (`@kapi/api-apps/client`); `T` exists only for the type checker.
 */
export interface ResourceType<T = KubeObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly subresources?: readonly string[];
  /** Never set: carries the object type. */
  readonly __object?: T;
}

/** An object to write: apiVersion and kind may be left out (the client sets them from the resource). */
export type Writable<T> = Omit<T, 'apiVersion' | 'kind'> & { apiVersion?: string; kind?: string };

/** What server-side apply takes: any part of an object (the fields the manager owns), with its name. */
export type ApplyConfiguration<T> = T extends (infer U)[]
  ? ApplyConfiguration<U>[]
  : T extends object
    ? { [K in keyof T]?: ApplyConfiguration<T[K]> }
    : T;

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; `pages()` asks for 500 by default. */
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  timeoutSeconds?: number;
  signal?: AbortSignal;
}

export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Watch changes after this resourceVersion (from a list, or the last event seen). */
  resourceVersion?: string;
  /** Ask for BOOKMARK events, which carry the latest resourceVersion while nothing changes (default true). */
  allowWatchBookmarks?: boolean;
  /**
   * Send the current objects as ADDED first, then a bookmark marking the end (Kubernetes' watch-list, with
   * `resourceVersionMatch: 'NotOlderThan'`; servers with the WatchList feature).
   */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: 'NotOlderThan';
  /** The server ends the watch after this long. */
  timeoutSeconds?: number;
  /**
   * When the server ends the watch, watch again from the last resourceVersion seen (an event's or a bookmark's), so
   * the iteration goes on until the loop is left or `signal` aborts. A version the server no longer keeps still
   * throws an ApiError with code 410.
   */
  reconnect?: boolean;
  signal?: AbortSignal;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  signal?: AbortSignal;
}

export type PatchType = 'merge' | 'json' | 'strategic';

export interface PatchOptions extends WriteOptions {
  /** merge (RFC 7386, the default), json (RFC 6902 operations) or strategic (built-in kinds only). */
  type?: PatchType;
}

export interface ApplyOptions extends Omit<WriteOptions, 'fieldManager'> {
  /** Who owns the fields applied (required by server-side apply). */
  fieldManager: string;
  /** Take fields from other managers instead of failing with a conflict. */
  force?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  signal?: AbortSignal;
}

const PATCH_TYPES: Record<PatchType | 'apply', string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';

const dryRun = (d?: boolean) => (d ? 'All' : undefined);

/**
 * A name or namespace must be one path segment that URL handling leaves alone (client-go's IsValidPathSegmentName):
 * `..` would reach the parent (`delete('..')` would delete the namespace), `.` the collection.
 */
function checkSegment(what: string, value: string): void {
  if (!value) throw new Error(`${what} must not be empty`);
  if (value === '.' || value === '..') throw new Error(`${what} may not be "${value}"`);
  if (value.includes('/') || value.includes('%')) throw new Error(`${what} may not contain "/" or "%": ${JSON.stringify(value)}`);
}

/** Reads and writes one resource's objects, across all namespaces or (after `namespace()`) in one. */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    readonly transport: Transport,
    readonly type: ResourceType<T>,
    /** The namespace this client is bound to; unset: all namespaces (lists, watches) or the object's own. */
    readonly ns?: string,
  ) {}

  /** The same resource in one namespace. */
  namespace(namespace: string): ResourceClient<T> {
    if (!this.type.namespaced) throw new Error(`${this.type.plural} are cluster-scoped: they have no namespace`);
    checkSegment('namespace', namespace);
    return new ResourceClient(this.transport, this.type, namespace);
  }

  /** The apiVersion of the objects: `apps/v1`, `v1`. */
  get apiVersion(): string {
    return this.type.group ? `${this.type.group}/${this.type.version}` : this.type.version;
  }

  /** The URL path of the collection (in `namespace`, or the client's), of an object, of a subresource. */
  path(name?: string, subresource?: string, namespace = this.ns): string {
    const { group, version, plural, namespaced } = this.type;
    let p = group ? `/apis/${group}/${version}` : `/api/${version}`;
    if (namespaced && namespace) {
      checkSegment('namespace', namespace);
      p += `/namespaces/${encodeURIComponent(namespace)}`;
    }
    p += `/${plural}`;
    if (name !== undefined) {
      checkSegment(`${this.type.kind} name`, name);
      p += `/${encodeURIComponent(name)}`;
    }
    if (subresource) p += `/${subresource}`;
    return p;
  }

  /** The namespace a request about one object goes to: the client's, or the object's own. */
  private objectNamespace(object?: { metadata?: { namespace?: string } }): string | undefined {
    if (!this.type.namespaced) return undefined;
    const ns = this.ns ?? object?.metadata?.namespace;
    if (!ns) throw new Error(`${this.type.plural} are namespaced: call namespace() or set metadata.namespace`);
    return ns;
  }

  private objectPath(name: string, subresource?: string, object?: { metadata?: { namespace?: string } }): string {
    return this.path(name, subresource, this.objectNamespace(object));
  }

  /** The object with apiVersion and kind set from the resource where left out. */
  private typed(object: Writable<T> | ApplyConfiguration<T>): KubeObject {
    return { apiVersion: this.apiVersion, kind: this.type.kind, ...(object as KubeObject) };
  }

  private nameOf(object: { metadata?: { name?: string } }): string {
    const name = object.metadata?.name;
    if (!name) throw new Error(`${this.type.kind} has no metadata.name`);
    return name;
  }

  private write<R>(method: string, path: string, body: unknown, opts: WriteOptions & { force?: boolean } = {}, contentType?: string): Promise<R> {
    const query: Query = { dryRun: dryRun(opts.dryRun), fieldManager: opts.fieldManager, fieldValidation: opts.fieldValidation, force: opts.force };
    return this.transport.json<R>({ method, path, query, body, contentType, signal: opts.signal });
  }

  /** The object. */
  async get(name: string, opts: { resourceVersion?: string; signal?: AbortSignal } = {}): Promise<T> {
    return this.transport.json<T>({ path: this.objectPath(name), query: { resourceVersion: opts.resourceVersion }, signal: opts.signal });
  }

  private listQuery(opts: ListOptions): Query {
    const { signal: _signal, continue: cont, ...rest } = opts;
    return { ...rest, continue: cont };
  }

  /** One list request (one page when `limit` is set; its `metadata.continue` asks for the next). */
  async list(opts: ListOptions = {}): Promise<ObjectList<T>> {
    return this.transport.json<ObjectList<T>>({ path: this.path(), query: this.listQuery(opts), signal: opts.signal });
  }

  /**
   * Every page of the list, `limit` objects at a time (500 by default), as one consistent snapshot (the first page's
   * resourceVersion; later pages follow its continue token).
   */
  async *pages(opts: ListOptions = {}): AsyncGenerator<ObjectList<T>> {
    let cont = opts.continue;
    do {
      // The continue token carries the snapshot's version: a resourceVersion beside it is refused.
      const at = cont ? { resourceVersion: undefined, resourceVersionMatch: undefined } : {};
      const page = await this.list({ limit: 500, ...opts, ...at, continue: cont });
      yield page;
      cont = page.metadata?.continue || undefined;
    } while (cont);
  }

  /** Every object of the list, fetched a page at a time: `for await (const d of deployments.items())`. */
  async *items(opts: ListOptions = {}): AsyncGenerator<T> {
    for await (const page of this.pages(opts)) yield* page.items;
  }

  /**
   * Changes as they happen: `for await (const event of deployments.watch({ resourceVersion }))`. Bookmarks are asked
   * for unless `allowWatchBookmarks: false`. The iteration ends when the server ends the watch (timeoutSeconds);
   * an expired resourceVersion throws an ApiError with code 410 (list again, then watch from the list's version).
   * Leaving the loop, or aborting `signal`, closes the request.
   */
  async *watch(opts: WatchOptions = {}): AsyncGenerator<WatchEvent<T>> {
    const { signal, allowWatchBookmarks = true, reconnect = false, ...rest } = opts;
    let query: Query = { watch: true, allowWatchBookmarks, ...rest };
    const backoff = new Backoff(200, 30_000);
    for (;;) {
      let resourceVersion = query.resourceVersion;
      let events = 0;
      try {
        const res = await this.transport.request({ path: this.path(), query, signal });
        for await (const event of watchEvents<T>(res)) {
          events++;
          resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
          yield event;
        }
      } catch (error) {
        // Aborting ends a reconnecting watch's iteration; an error of the server's is thrown.
        if (reconnect && signal?.aborted) return;
        throw error;
      }
      if (!reconnect || signal?.aborted) return;
      // A watch that ends without an event (a proxy closing it at once, say) is not retried in a tight loop.
      if (events === 0) await sleep(backoff.next(), signal);
      else backoff.reset();
      if (signal?.aborted) return;
      // The initial events were sent: a resumed watch asks only for what changed since.
      query = { ...query, resourceVersion, sendInitialEvents: undefined, resourceVersionMatch: undefined };
    }
  }

  /** Creates the object (in the client's namespace, or its metadata.namespace). */
  async create(object: Writable<T>, opts?: WriteOptions): Promise<T> {
    return this.write<T>('POST', this.path(undefined, undefined, this.objectNamespace(object)), this.typed(object), opts);
  }

  /** Replaces the object; with metadata.resourceVersion set, only if nobody changed it since (else 409 Conflict). */
  async update(object: Writable<T>, opts?: WriteOptions): Promise<T> {
    return this.write<T>('PUT', this.objectPath(this.nameOf(object), undefined, object), this.typed(object), opts);
  }

  /** Patches the object: a merge patch (default), a JSON patch (operations) or a strategic merge patch. */
  async patch(name: string, patch: unknown, opts: PatchOptions = {}): Promise<T> {
    return this.write<T>('PATCH', this.objectPath(name), patch, opts, PATCH_TYPES[opts.type ?? 'merge']);
  }

  /** Server-side apply: the fields `object` sets become `fieldManager`'s; creates the object if missing. */
  async apply(object: ApplyConfiguration<T>, opts: ApplyOptions): Promise<T> {
    return this.write<T>('PATCH', this.objectPath(this.nameOf(object), undefined, object), this.typed(object), opts, PATCH_TYPES.apply);
  }

  /** Deletes the object: the object as deleted or (with finalizers) as marked for deletion, or a Status. */
  async delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    const { signal, dryRun: dry, ...body } = opts;
    return this.transport.json<T | Status>({
      method: 'DELETE',
      path: this.objectPath(name),
      query: { dryRun: dryRun(dry) },
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...body },
      signal,
    });
  }

  /** Deletes every object the selectors match (in the client's namespace). */
  async deleteCollection(opts: ListOptions & DeleteOptions = {}): Promise<ObjectList<T> | Status> {
    const { signal, dryRun: dry, propagationPolicy, gracePeriodSeconds, preconditions, ...list } = opts;
    return this.transport.json({
      method: 'DELETE',
      path: this.path(),
      query: { ...this.listQuery(list), dryRun: dryRun(dry) },
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy, gracePeriodSeconds, preconditions },
      signal,
    });
  }

  /** The list as the server prints it (`kubectl get`): columns and rows, with the objects when `includeObject`. */
  async table(opts: ListOptions & { includeObject?: 'None' | 'Metadata' | 'Object' } = {}): Promise<Table<T>> {
    const { includeObject, ...list } = opts;
    return this.transport.json<Table<T>>({ path: this.path(), query: { ...this.listQuery(list), includeObject }, accept: TABLE, signal: opts.signal });
  }

  /** The status subresource: read and write only `.status`. */
  get status() {
    return {
      get: async (name: string): Promise<T> => this.transport.json<T>({ path: this.objectPath(name, 'status') }),
      update: async (object: Writable<T>, opts?: WriteOptions): Promise<T> =>
        this.write<T>('PUT', this.objectPath(this.nameOf(object), 'status', object), this.typed(object), opts),
      patch: async (name: string, patch: unknown, opts: PatchOptions = {}): Promise<T> =>
        this.write<T>('PATCH', this.objectPath(name, 'status'), patch, opts, PATCH_TYPES[opts.type ?? 'merge']),
      apply: async (object: ApplyConfiguration<T>, opts: ApplyOptions): Promise<T> =>
        this.write<T>('PATCH', this.objectPath(this.nameOf(object), 'status', object), this.typed(object), opts, PATCH_TYPES.apply),
    };
  }

  /** The scale subresource (autoscaling/v1 Scale). */
  get scale() {
    return {
      get: async (name: string): Promise<Scale> => this.transport.json<Scale>({ path: this.objectPath(name, 'scale') }),
      update: async (name: string, scale: Scale, opts?: WriteOptions): Promise<Scale> => this.write<Scale>('PUT', this.objectPath(name, 'scale'), scale, opts),
      patch: async (name: string, patch: unknown, opts: PatchOptions = {}): Promise<Scale> =>
        this.write<Scale>('PATCH', this.objectPath(name, 'scale'), patch, opts, PATCH_TYPES[opts.type ?? 'merge']),
    };
  }
}
