import {
  cloneJson,
  GoValue,
  newBadRequest,
  newConflict,
  newGenerateNameConflict,
  newInvalid,
  newNotFound,
  newResourceExpired,
  type KubeList,
  type KubeObject,
} from '@kapi/apimachinery';
import { DELETE, isStorageError } from '@kapi/storage';
import type { AdmissionChain } from '../admission/chain.js';
import { admissionAttributes, admissionDeleteOptions } from './admission-attributes.js';
import { dryRunnable } from '../storage/dry-run.js';
import type { ObjectStorage, WatcherEvent } from '../storage/interfaces.js';
import { CorruptObjectError } from '../storage/codec.js';
import { checkPreconditions, readableObjectError, validateUnsafeDelete, type DeleteOptions, type DeleteResult } from './delete.js';
import { jsonEqual } from './diff.js';
import { EXPIRED_CONTINUE, listRequest, selects } from './list.js';
import { ALL_OBJECTS, validateListOptions, type ListOptions } from './list-options.js';
import { fromStorageError, groupResource, OPTIMISTIC_LOCK_MESSAGE } from './errors.js';
import { generateName } from './names.js';
import { metaOf } from './object-meta.js';
import { fromStorage, fromStorageShared, fromStorageVersion, inStorageVersion, toStorageVersion } from './versions.js';
import { andThen } from '../maybe.js';
import { apiVersionOf, collectionPrefix, objectKey, type ResourceEntry } from './resources.js';
import { checkDeadline, type RequestContext } from './context.js';
import type { WriteFinisher } from '../plugin.js';
import { afterDelete, beforeCreate, beforeDelete, beforeUpdate, beginCreate, beginUpdate, finalized, stampTypeAndNamespace } from './rest.js';

export type { DeleteOptions, DeleteResult } from './delete.js';
export type { RequestContext } from './context.js';

export type WriteType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreConfig {
  /** Object storage: usually the watch cache's delegator in front of the backend. */
  storage: ObjectStorage;
  admission: AdmissionChain;
  /** Told after every stored write (not dry runs), for in-process controllers. */
  onWrite?(entry: ResourceEntry, type: WriteType, obj: KubeObject): void;
  /** Whether a garbage collector runs: deletes then set its finalizers as their propagation policy asks. */
  garbageCollection?: () => boolean;
}

/** What an update computes from the stored object (undefined when the object does not exist). */
export type Updater = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

export interface UpdateResult {
  obj: KubeObject;
  created: boolean;
  /** The update removed the last finalizer of an object being deleted, so it is gone. */
  removed?: boolean;
}

export interface WatchOptions {
  /** Single-object watch (`/pods/NAME?watch=1`). */
  name?: string;
  /** The WatchList feature gate: streaming lists (`sendInitialEvents`). */
  watchList: boolean;
  /** Frames one event in the client's media type. */
  frame(event: WatcherEvent): Uint8Array;
  signal: AbortSignal;
}

/**
 * The generic registry Store (k8s.io/apiserver registry/generic/registry/store.go): the operations every kind
 * shares, configured per kind by its ResourceEntry and strategy. Handlers and controllers use only these.
 */
export interface Store {
  /**
   * Create (POST): mutating admission, beforeCreate, validating admission, then storage. The Store works on a copy
   * of `obj` unless `owned` says the caller hands it over (a request body decoded for this write alone).
   */
  create(ctx: RequestContext, obj: KubeObject, options?: { owned?: boolean }): Promise<KubeObject>;
  /** Get per kube's get table (docs/lists-and-watches.md); 404 when missing. */
  get(ctx: RequestContext, name: string, resourceVersion?: string): Promise<KubeObject>;
  /**
   * A read of one object for controllers and admission, undefined when missing: consistent, or per the get table
   * with a `resourceVersion` ("0": the watch cache as it is, without waiting for it).
   */
  find(ctx: RequestContext, name: string, resourceVersion?: string): Promise<KubeObject | undefined>;
  /** List per kube's list table (docs/lists-and-watches.md), with selectors and chunking; every object by default. */
  list(ctx: RequestContext, options?: ListOptions): Promise<KubeList>;
  /** Update (PUT, PATCH, subresources): read-modify-write with compare-and-swap; may create (PUT, apply). */
  update(ctx: RequestContext, name: string, updater: Updater, options?: { allowCreate?: boolean }): Promise<UpdateResult>;
  /** Two-phase delete (kube API concepts, "States and transitions"). */
  delete(ctx: RequestContext, name: string, options?: DeleteOptions): Promise<DeleteResult>;
  /** Deletes what a list selects, one object at a time; objects already gone are skipped. */
  deleteCollection(ctx: RequestContext, listOptions: ListOptions, options?: DeleteOptions): Promise<{ list: KubeList; results: DeleteResult[] }>;
  /** Watch per kube's watch table (docs/lists-and-watches.md). */
  watch(ctx: RequestContext, options: ListOptions, watch: WatchOptions): Promise<ReadableStream<Uint8Array>>;
  /**
   * Forced deletion of a corrupt object (kube API concepts, "Forced deletion"): only when it really cannot be read; it then goes
   * from storage directly, ignoring finalizers and preconditions.
   */
  forceDeleteCorrupt(ctx: RequestContext, name: string, options: DeleteOptions, gateEnabled: boolean): Promise<void>;
}

const GENERATE_NAME_ATTEMPTS = 8;
const ADMITTED: AdmissionChain = { mutate: async () => {}, validate: async () => {} };

export function createStore(config: StoreConfig): Store {
  const { admission } = config;
  // Writes a subresource action makes for a request that was already admitted skip admission (RequestContext.admitted).
  const admissionOf = (ctx: RequestContext): AdmissionChain => (ctx.admitted ? ADMITTED : admission);
  const storageFor = dryRunnable(config.storage);
  const storage = (ctx: RequestContext) => storageFor(ctx.dryRun);
  const notify = (ctx: RequestContext, type: WriteType, obj: KubeObject) => {
    if (!ctx.dryRun) config.onWrite?.(ctx.entry, type, obj);
  };

  const attributes = admissionAttributes;

  /**
   * The object a create stores: mutating admission, then the strategy, then validating admission. `generated` is
   * true when its name was generated (from metadata.generateName), so a taken name is retried with another.
   */
  async function admitCreate(ctx: RequestContext, obj: KubeObject): Promise<{ obj: KubeObject; generated: boolean }> {
    stampTypeAndNamespace(ctx, obj);
    const meta = metaOf(obj);
    await admissionOf(ctx).mutate(attributes(ctx, 'CREATE', String(meta.name ?? ''), obj));
    const generated = !meta.name && !!meta.generateName;
    beforeCreate(ctx, obj);
    await admissionOf(ctx).validate(attributes(ctx, 'CREATE', String(meta.name), obj));
    checkDeadline(ctx);
    return { obj, generated };
  }

  /** Runs a storage call, turning storage errors into API errors (the registry boundary). */
  function call<T>(ctx: RequestContext, name: string, op: () => Promise<T>): Promise<T> {
    // Chained rather than awaited (a GET is mostly this path); a synchronous throw of `op` fails the same way.
    try {
      return op().then(undefined, (err: unknown) => {
        throw fromStorageError(ctx.entry, name, err);
      });
    } catch (err) {
      return Promise.reject(fromStorageError(ctx.entry, name, err));
    }
  }

  const store: Store = {
    async create(ctx, input, options = {}) {
      const { obj, generated: generating } = await admitCreate(ctx, options.owned ? input : cloneJson(input));
      const meta = metaOf(obj);
      for (let attempt = 1; ; attempt++) {
        const finish = await beginCreate(ctx, obj);
        try {
          const stored = await storage(ctx).create(objectKey(ctx.entry, String(meta.namespace ?? ''), String(meta.name)), await toStorageVersion(ctx.entry, obj));
          await finish?.(true);
          notify(ctx, 'ADDED', stored);
          return fromStorage(ctx.entry, stored);
        } catch (err) {
          await finish?.(false);
          if (generating && isStorageError(err, 'KeyExists')) {
            if (attempt >= GENERATE_NAME_ATTEMPTS) throw newGenerateNameConflict(groupResource(ctx.entry), String(meta.name), 1);
            meta.name = generateName(String(meta.generateName));
            continue;
          }
          throw fromStorageError(ctx.entry, String(meta.name), err);
        }
      }
    },

    // Chained rather than awaited: a GET is mostly this path, and each async layer costs it a turn.
    get(ctx, name, resourceVersion = '') {
      return store.find(ctx, name, resourceVersion).then((obj) => {
        if (!obj) throw newNotFound(groupResource(ctx.entry), name);
        return obj;
      });
    },

    find(ctx, name, resourceVersion = '') {
      const { entry } = ctx;
      // Only the read's failure is a storage error; a conversion's failure is its own.
      return call(ctx, name, () => config.storage.get(objectKey(entry, ctx.namespace, name), { resourceVersion, keyPrefix: entry.keyPrefix })).then(
        (obj) => obj && fromStorage(entry, obj),
      );
    },

    async list(ctx, options = ALL_OBJECTS) {
      validateListOptions(options, 'list', false);
      const { request, toList } = listRequest(ctx.entry, ctx.namespace, options);
      try {
        const list = toList(await config.storage.getList(request));
        if (ctx.entry.conversion) list.items = await fromStorageVersion(ctx.entry, list.items);
        return list;
      } catch (err) {
        if (options.continueToken && isStorageError(err, 'Compacted')) throw newResourceExpired(EXPIRED_CONTINUE);
        throw fromStorageError(ctx.entry, '', err);
      }
    },

    async update(ctx, name, updater, options = {}) {
      const { entry } = ctx;
      let created = false;
      let finalizedObj: KubeObject | undefined;
      // What the strategy's beginCreate/beginUpdate took for the attempt under way (an attempt that loses a
      // compare-and-swap race gives it back before the next one).
      let finish: WriteFinisher | undefined;
      const settle = async (succeeded: boolean) => {
        const pending = finish;
        finish = undefined;
        await pending?.(succeeded);
      };
      let outcome;
      try {
        outcome = await call(ctx, name, () =>
          storage(ctx).guaranteedUpdate(objectKey(entry, ctx.namespace, name), async (stored) => {
            created = false;
            const current = stored && (await fromStorage(entry, stored));
            // The updater gets its own copy: `current` stays the old object (admission's oldObject, field ownership).
            const input = await updater(current ? cloneJson(current) : undefined);
            const inputMeta = metaOf(input);
            if (inputMeta.name !== undefined && inputMeta.name !== name) {
              throw newBadRequest(`the name of the object (${inputMeta.name}) does not match the name on the URL (${name})`);
            }
            inputMeta.name = name;
            if (!current) {
              const allowCreate = options.allowCreate ?? entry.strategy.allowCreateOnUpdate ?? entry.info.allowCreateOnUpdate ?? true;
              if (!allowCreate || ctx.subresource !== '' || inputMeta.resourceVersion) throw newNotFound(groupResource(entry), name);
              created = true;
              await settle(false);
              const admitted = (await admitCreate(ctx, input)).obj;
              finish = await beginCreate(ctx, admitted);
              return toStorageVersion(entry, admitted);
            }
            const rv = inputMeta.resourceVersion;
            if (rv && String(rv) !== String(metaOf(current).resourceVersion)) {
              throw newConflict(groupResource(entry), name, OPTIMISTIC_LOCK_MESSAGE);
            }
            stampTypeAndNamespace(ctx, input);
            await admissionOf(ctx).mutate(attributes(ctx, 'UPDATE', name, input, current));
            // A mutation that changed the resourceVersion asks for another revision than the stored one (kube: 409).
            const mutatedRv = metaOf(input).resourceVersion;
            if (mutatedRv && String(mutatedRv) !== String(metaOf(current).resourceVersion)) {
              throw newConflict(groupResource(entry), name, OPTIMISTIC_LOCK_MESSAGE);
            }
            if (!mutatedRv && (entry.strategy.allowUnconditionalUpdate ?? entry.info.allowUnconditionalUpdate) === false) throw unconditionalUpdate(entry, name);
            const obj = beforeUpdate(ctx, input, current);
            await admissionOf(ctx).validate(attributes(ctx, 'UPDATE', name, obj, current));
            checkDeadline(ctx);
            finalizedObj = finalized(entry, obj) ? obj : undefined;
            if (finalizedObj) return DELETE;
            await settle(false);
            finish = await beginUpdate(ctx, obj, current);
            metaOf(obj).resourceVersion = metaOf(current).resourceVersion;
            // Nothing changed: no write, unless the object is stored in another version than its kind's storage
            // version (a storage migration rewrites objects with unchanged updates, as kube's migrator does).
            return jsonEqual(obj, current) && inStorageVersion(entry, stored) ? stored : toStorageVersion(entry, obj);
          }, { ignoreNotFound: true }),
        );
      } catch (err) {
        await settle(false);
        throw err;
      }
      await settle(true);
      if ('deleted' in outcome) {
        // The object as the update left it (its last finalizer removed), at the delete's revision.
        const gone = { ...finalizedObj!, metadata: { ...finalizedObj!.metadata, resourceVersion: metaOf(outcome.deleted).resourceVersion } };
        await afterDelete(ctx, gone);
        notify(ctx, 'DELETED', gone);
        return { obj: gone, created: false, removed: true };
      }
      if (outcome.written) notify(ctx, created ? 'ADDED' : 'MODIFIED', outcome.obj);
      return { obj: await fromStorage(entry, outcome.obj), created };
    },

    async delete(ctx, name, options = {}) {
      const { entry } = ctx;
      const outcome = await call(ctx, name, () =>
        storage(ctx).guaranteedUpdate(objectKey(entry, ctx.namespace, name), async (current) => {
          checkPreconditions(entry, name, current!, options);
          // kube's AdmissionToValidateObjectDeleteFunc: mutating, then validating admission, on the stored object.
          const attrs = attributes(ctx, 'DELETE', name, undefined, current, admissionDeleteOptions(options));
          await admissionOf(ctx).mutate(attrs);
          await admissionOf(ctx).validate(attrs);
          checkDeadline(ctx);
          return beforeDelete(ctx, current!, options, config.garbageCollection?.() ?? false) ?? DELETE;
        }),
      );
      if ('deleted' in outcome) {
        const obj = await fromStorage(entry, outcome.deleted);
        await afterDelete(ctx, obj);
        notify(ctx, 'DELETED', outcome.deleted);
        return { obj, removed: true };
      }
      if (outcome.written) notify(ctx, 'MODIFIED', outcome.obj);
      return { obj: await fromStorage(entry, outcome.obj), removed: false };
    },

    async deleteCollection(ctx, listOptions, options = {}) {
      const list = await store.list(ctx, { ...listOptions, limit: 0 });
      const results: DeleteResult[] = [];
      for (const item of list.items) {
        const meta = metaOf(item);
        try {
          results.push(await store.delete({ ...ctx, namespace: String(meta.namespace ?? '') }, String(meta.name), options));
        } catch (err) {
          if ((err as { status?: { code?: number } }).status?.code !== 404) throw err;
        }
      }
      return { list, results };
    },

    async watch(ctx, options, watch) {
      const { entry } = ctx;
      validateListOptions(options, 'watch', watch.watchList);
      const namespace = entry.info.scope === 'Namespaced' ? ctx.namespace : '';
      return call(ctx, '', () =>
        config.storage.watch({
          keyPrefix: entry.keyPrefix,
          prefix: collectionPrefix(entry, ctx.namespace),
          options,
          matches: (obj) => {
            const meta = obj.metadata as { name?: string; namespace?: string };
            return (!namespace || meta.namespace === namespace) && (!watch.name || meta.name === watch.name) && selects(entry, options, obj);
          },
          bookmark: (revision, annotations) => ({
            kind: entry.info.kind,
            apiVersion: apiVersionOf(entry.info),
            metadata: { resourceVersion: String(revision), ...(annotations ? { annotations } : {}) },
          }),
          frame: entry.conversion ? (event) => (event.type === 'BOOKMARK' || event.type === 'ERROR' ? watch.frame(event) : andThen(fromStorageShared(entry, event.object as KubeObject), (object) => watch.frame({ ...event, object }))) : watch.frame,
          signal: watch.signal,
        }),
      );
    },

    async forceDeleteCorrupt(ctx, name, options, gateEnabled) {
      validateUnsafeDelete(options, gateEnabled);
      try {
        await store.get(ctx, name);
      } catch (err) {
        if (!(err instanceof CorruptObjectError)) throw err;
        await call(ctx, name, () => config.storage.forceDelete(err.key));
        notify(ctx, 'DELETED', { metadata: { name, namespace: ctx.namespace || undefined } });
        return;
      }
      throw readableObjectError();
    },
  };
  return store;
}

/**
 * kube's refusal of an update without a resourceVersion for a kind that needs one: an Invalid error whose kind is the
 * resource (`customresourcedefinitions.apiextensions.k8s.io "x" is invalid`, kube's own TODO), the value Go's `%#v` of
 * the uint64 zero.
 */
function unconditionalUpdate(entry: ResourceEntry, name: string) {
  return newInvalid({ group: entry.info.group, kind: entry.info.plural }, name, [
    { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', badValue: new GoValue('0x0'), message: 'must be specified for an update' },
  ]);
}
