import { randomUUID } from 'node:crypto';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newGenerateNameConflict,
  newInvalid,
  newNotFound,
  type FieldError,
  type KubeObject,
} from '@kapi/apimachinery';
import { isStorageError, type KeyValue, type StorageBackend } from '@kapi/storage';
import type { AdmissionChain } from '../admission/chain.js';
import type { WatchCache } from '../cacher/cacher.js';
import type { AdmissionAttributes, AdmissionOperation, UserInfo } from '../admission/types.js';
import { decodeFromStorage, encodeForStorage } from './codec.js';
import { jsonEqual, specChanged } from './diff.js';
import { fromStorageError, groupResource, OPTIMISTIC_LOCK_MESSAGE } from './errors.js';
import { generateName } from './names.js';
import { dropEmptyMetadata, metaOf, nowTimestamp, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { apiVersionOf, objectKey, type ResourceEntry } from './resources.js';

/** One request's target: the resource, the namespace from the URL, the caller, and the dry-run flag. */
export interface RequestContext {
  entry: ResourceEntry;
  /** Namespace from the URL ('' for cluster-scoped resources and all-namespace lists). */
  namespace: string;
  user: UserInfo;
  dryRun: boolean;
  /** '' for the main resource, or `status`, `scale`, ... */
  subresource: string;
}

export type WriteType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreDeps {
  storage: StorageBackend;
  admission: AdmissionChain;
  /** The watch cache in front of `storage`: reads that may come from it, and every watch. */
  cache?: WatchCache;
  /** Told after every stored write (not dry runs), for in-process controllers. */
  onWrite?(entry: ResourceEntry, type: WriteType, obj: KubeObject): void;
}

/** What an update computes from the stored object (undefined when the object does not exist). */
export type Updater = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

export interface UpdateResult {
  obj: KubeObject;
  created: boolean;
  /** The update removed the last finalizer of an object being deleted, so it is gone. */
  removed?: boolean;
}

const GENERATE_NAME_ATTEMPTS = 8;
const MAX_CAS_RETRIES = 16;

const hasStatusSubresource = (entry: ResourceEntry) => !!entry.info.subresources.status;
const kindHasSpec = (entry: ResourceEntry) => 'spec' in (entry.group.fieldTree.types[entry.typeKey]?.props ?? {});

/**
 * The generic registry Store (k8s.io/apiserver registry/generic/registry/store.go): everything every kind shares,
 * configured per kind by its ResourceEntry and strategy.
 */
export function createStore(deps: StoreDeps) {
  const { storage, admission } = deps;

  const attributes = (
    ctx: RequestContext,
    operation: AdmissionOperation,
    name: string,
    object?: KubeObject,
    oldObject?: KubeObject,
  ): AdmissionAttributes => ({
    operation,
    resource: ctx.entry.info,
    subresource: ctx.subresource,
    namespace: ctx.namespace,
    name,
    object,
    oldObject,
    user: ctx.user,
    dryRun: ctx.dryRun,
  });

  const fail = (ctx: RequestContext, name: string, errs: FieldError[]) => {
    if (errs.length) throw newInvalid({ group: ctx.entry.info.group, kind: ctx.entry.info.kind }, name, errs);
  };

  const validateCreate = (ctx: RequestContext, obj: KubeObject) => {
    const { entry } = ctx;
    const errs = [...validateObjectMeta(entry, obj), ...entry.validate(obj), ...(entry.strategy.validate?.(obj) ?? [])];
    fail(ctx, String(metaOf(obj).name ?? ''), errs);
  };

  const validateUpdate = (ctx: RequestContext, obj: KubeObject, old: KubeObject) => {
    const { entry } = ctx;
    const errs = [
      ...validateObjectMeta(entry, obj),
      ...validateObjectMetaUpdate(obj, old),
      ...entry.validate(obj),
      ...(entry.strategy.validateUpdate?.(obj, old) ?? entry.strategy.validate?.(obj) ?? []),
    ];
    fail(ctx, String(metaOf(obj).name ?? ''), errs);
  };

  const read = async (ctx: RequestContext, name: string): Promise<KeyValue | undefined> => {
    try {
      return (await storage.get(objectKey(ctx.entry, ctx.namespace, name))).kv;
    } catch (err) {
      throw fromStorageError(ctx.entry, name, err);
    }
  };

  /** Sets the type and namespace the URL implies, and checks that the body agrees with them. */
  const stampTypeAndNamespace = (ctx: RequestContext, obj: KubeObject) => {
    const { info } = ctx.entry;
    const meta = metaOf(obj);
    if (info.scope === 'Namespaced') {
      if (meta.namespace && ctx.namespace && meta.namespace !== ctx.namespace) {
        throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = ctx.namespace || meta.namespace;
    } else {
      delete meta.namespace;
    }
    obj.apiVersion = apiVersionOf(info);
    obj.kind = info.kind;
  };

  const prepareCreate = (ctx: RequestContext, obj: KubeObject) => {
    const { entry } = ctx;
    stampTypeAndNamespace(ctx, obj);
    const meta = metaOf(obj);
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.resourceVersion;
    delete meta.selfLink;
    if (kindHasSpec(entry)) meta.generation = 1;
    else delete meta.generation;
    if (hasStatusSubresource(entry) && !entry.strategy.prepareForCreate) delete obj.status;
    entry.strategy.prepareForCreate?.(obj);
  };

  /** Create (POST): the object as it will be stored, after admission and validation. */
  async function create(ctx: RequestContext, input: KubeObject): Promise<KubeObject> {
    const obj = structuredClone(input);
    prepareCreate(ctx, obj);
    const meta = metaOf(obj);
    const generating = !meta.name && !!meta.generateName;
    if (generating) meta.name = generateName(String(meta.generateName));
    await admission.mutate(attributes(ctx, 'CREATE', String(meta.name ?? ''), obj));
    stampTypeAndNamespace(ctx, obj);
    dropEmptyMetadata(obj);
    validateCreate(ctx, obj);
    ctx.entry.strategy.canonicalize?.(obj);
    await admission.validate(attributes(ctx, 'CREATE', String(meta.name), obj));
    for (let attempt = 1; ; attempt++) {
      const key = objectKey(ctx.entry, String(meta.namespace ?? ''), String(meta.name));
      if (ctx.dryRun) {
        if (await storage.get(key).then((r) => r.kv)) throw newAlreadyExists(groupResource(ctx.entry), String(meta.name));
        return obj;
      }
      try {
        const kv = await storage.create(key, encodeForStorage(obj));
        const stored = decodeFromStorage(kv);
        deps.onWrite?.(ctx.entry, 'ADDED', stored);
        return stored;
      } catch (err) {
        if (generating && isStorageError(err, 'KeyExists')) {
          if (attempt >= GENERATE_NAME_ATTEMPTS) throw newGenerateNameConflict(groupResource(ctx.entry), String(meta.name), 1);
          meta.name = generateName(String(meta.generateName));
          continue;
        }
        throw fromStorageError(ctx.entry, String(meta.name), err);
      }
    }
  }

  async function get(ctx: RequestContext, name: string): Promise<KubeObject> {
    const kv = await read(ctx, name);
    if (!kv) throw newNotFound(groupResource(ctx.entry), name);
    return decodeFromStorage(kv);
  }

  /**
   * The object an update would store: system fields carried over, status or spec kept per subresource, the
   * strategy's preparation, and generation bumped when anything but metadata and status changed.
   */
  const prepareUpdate = (ctx: RequestContext, input: KubeObject, old: KubeObject): KubeObject => {
    const { entry } = ctx;
    let obj = structuredClone(input);
    stampTypeAndNamespace(ctx, obj);
    const oldMeta = metaOf(old);
    if (ctx.subresource === 'status') {
      obj = { ...structuredClone(old), status: obj.status };
    } else if (ctx.subresource === 'finalize') {
      const finalizers = (obj.spec as { finalizers?: string[] } | undefined)?.finalizers;
      obj = structuredClone(old);
      obj.spec = { ...(obj.spec as object), finalizers };
      if (!finalizers) delete (obj.spec as { finalizers?: string[] }).finalizers;
    } else if (hasStatusSubresource(entry) && ctx.subresource === '') {
      if (old.status === undefined) delete obj.status;
      else obj.status = structuredClone(old.status);
    }
    const newMeta = metaOf(obj);
    newMeta.uid ||= oldMeta.uid;
    newMeta.creationTimestamp ||= oldMeta.creationTimestamp;
    for (const f of ['deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const) {
      if (oldMeta[f] === undefined) delete newMeta[f];
      else newMeta[f] = oldMeta[f];
    }
    delete newMeta.selfLink;
    if (ctx.subresource === '') entry.strategy.prepareForUpdate?.(obj, old);
    if (newMeta.generation !== undefined && specChanged(obj, old)) newMeta.generation = Number(newMeta.generation) + 1;
    return obj;
  };

  /** Update (PUT, PATCH, subresources): a compare-and-swap loop over the stored object. */
  async function update(ctx: RequestContext, name: string, updater: Updater, options: { allowCreate?: boolean } = {}): Promise<UpdateResult> {
    const { entry } = ctx;
    const key = objectKey(entry, ctx.namespace, name);
    for (let attempt = 0; attempt < MAX_CAS_RETRIES; attempt++) {
      const kv = await read(ctx, name);
      const current = kv ? decodeFromStorage(kv) : undefined;
      const input = await updater(current ? structuredClone(current) : undefined);
      const inputMeta = metaOf(input);
      if (inputMeta.name !== undefined && inputMeta.name !== name) {
        throw newBadRequest(`the name of the object (${inputMeta.name}) does not match the name on the URL (${name})`);
      }
      inputMeta.name = name;
      if (!current) {
        const allowCreate = options.allowCreate ?? entry.strategy.allowCreateOnUpdate ?? true;
        if (!allowCreate || ctx.subresource !== '') throw newNotFound(groupResource(entry), name);
        if (inputMeta.resourceVersion) throw newNotFound(groupResource(entry), name);
        return { obj: await create(ctx, input), created: true };
      }
      const rv = inputMeta.resourceVersion;
      if (rv && String(rv) !== String(kv!.modRevision)) {
        throw newConflict(groupResource(entry), name, OPTIMISTIC_LOCK_MESSAGE);
      }
      const obj = prepareUpdate(ctx, input, current);
      await admission.mutate(attributes(ctx, 'UPDATE', name, obj, current));
      stampTypeAndNamespace(ctx, obj);
      dropEmptyMetadata(obj);
      validateUpdate(ctx, obj, current);
      entry.strategy.canonicalize?.(obj);
      await admission.validate(attributes(ctx, 'UPDATE', name, obj, current));

      const meta = metaOf(obj);
      const finalizing =
        meta.deletionTimestamp && !(meta.finalizers as unknown[] | undefined)?.length && !entry.strategy.deletionPending?.(obj);
      if (finalizing) {
        if (ctx.dryRun) return { obj, created: false, removed: true };
        try {
          const deleted = await storage.delete(key, kv!.modRevision);
          const gone = { ...obj, metadata: { ...meta, resourceVersion: String(deleted.modRevision) } };
          deps.onWrite?.(entry, 'DELETED', gone);
          return { obj: gone, created: false, removed: true };
        } catch (err) {
          if (isStorageError(err, 'Conflict')) continue;
          throw fromStorageError(entry, name, err);
        }
      }
      meta.resourceVersion = current.metadata!.resourceVersion;
      if (jsonEqual(obj, current)) return { obj: current, created: false };
      if (ctx.dryRun) return { obj, created: false };
      try {
        const stored = decodeFromStorage(await storage.update(key, encodeForStorage(obj), kv!.modRevision));
        deps.onWrite?.(entry, 'MODIFIED', stored);
        return { obj: stored, created: false };
      } catch (err) {
        if (isStorageError(err, 'Conflict') && !rv) continue;
        throw fromStorageError(entry, name, err);
      }
    }
    throw newConflict(groupResource(entry), name, OPTIMISTIC_LOCK_MESSAGE);
  }

  return { create, get, update, read, storage, cache: deps.cache, deps };
}

export type Store = ReturnType<typeof createStore>;
