import {
  newBadRequest,
  newNotFound,
  newResourceExpired,
  newTooLargeResourceVersion,
  type KubeList,
  type KubeObject,
} from '@kapi/apimachinery';
import { isStorageError } from '@kapi/storage';
import { decodeFromStorage } from './codec.js';
import { fromStorageError, groupResource } from './errors.js';
import { fieldLabels } from './field-labels.js';
import { EXACT, NOT_OLDER_THAN, parseResourceVersion, validateListOptions, type ListOptions } from './list-options.js';
import { apiVersionOf, collectionPrefix, objectKey, type ResourceEntry } from './resources.js';
import type { RequestContext, Store } from './store.js';

export { ALL_OBJECTS, parseListOptions, type ListOptions } from './list-options.js';

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start } satisfies ContinueToken)).toString('base64url');
}

function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
    if (parsed.v !== 'meta.k8s.io/v1' || !Number.isSafeInteger(parsed.rv) || parsed.rv <= 0 || typeof parsed.start !== 'string') {
      throw new Error();
    }
    return parsed;
  } catch {
    throw newBadRequest(`continue key is not valid: ${token}`);
  }
}

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Whether an object passes the list's label and field selectors. */
export function selects(entry: ResourceEntry, options: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>, obj: KubeObject): boolean {
  const labels = (obj.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  if (!options.labelSelector.matches(labels)) return false;
  // Field labels are worth computing only for a selector that reads them (every watcher runs this per event).
  return options.fieldSelector.isEmpty() || options.fieldSelector.matches(fieldLabels(entry.info.group, entry.info.kind, obj));
}

/**
 * How a read is served, per the spec's resource version tables: `consistent` (Most recent), `any`, `notOlderThan`
 * a revision, or `exact` (Exact, and Continuation with the token's revision).
 */
export type ReadPlan = { mode: 'consistent' | 'any' } | { mode: 'notOlderThan' | 'exact'; revision: number };

function planList(options: ListOptions): ReadPlan {
  const rv = parseResourceVersion(options.resourceVersion);
  if (options.resourceVersionMatch === EXACT) return { mode: 'exact', revision: rv! };
  if (rv === undefined) return { mode: 'consistent' };
  if (rv === 0) return { mode: 'any' };
  if (options.resourceVersionMatch === NOT_OLDER_THAN || !options.limit) return { mode: 'notOlderThan', revision: rv };
  return { mode: 'exact', revision: rv };
}

interface Page {
  items: KubeObject[];
  revision: number;
  lastKey: string;
  more: boolean;
  remaining: number;
}

/**
 * A list of a collection (in one namespace or all), filtered by selectors and cut into chunks of `limit`, read per
 * the spec's list table: from the watch cache (current state, or a snapshot of a past revision) when it can serve
 * the read, else from storage. Every chunk of one listing is read at the first chunk's revision, so the chunks form
 * one consistent snapshot; a token whose revision is gone is 410.
 */
export async function listObjects(store: Store, ctx: RequestContext, options: ListOptions): Promise<KubeList> {
  const { entry } = ctx;
  validateListOptions(options, 'list', false);
  const prefix = collectionPrefix(entry, ctx.namespace);
  let plan: ReadPlan;
  let startKey: string | undefined;
  if (options.continueToken) {
    if (options.resourceVersion && options.resourceVersion !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    const token = decodeContinue(options.continueToken);
    plan = { mode: 'exact', revision: token.rv };
    startKey = prefix + token.start;
  } else {
    plan = planList(options);
  }
  const filtered = !options.labelSelector.isEmpty() || !options.fieldSelector.isEmpty();
  const select = (obj: KubeObject) => !filtered || selects(entry, options, obj);
  let page: Page;
  try {
    page = await readPage(store, entry, plan, { prefix, startKey, limit: options.limit, select });
  } catch (err) {
    if (options.continueToken && isStorageError(err, 'Compacted')) throw newResourceExpired(EXPIRED_CONTINUE);
    throw fromStorageError(entry, '', err);
  }
  const metadata: Record<string, unknown> = { resourceVersion: String(page.revision) };
  if (options.limit && page.more) {
    metadata.continue = encodeContinue(page.revision, `${page.lastKey.slice(prefix.length)}\u0000`);
    if (!filtered) metadata.remainingItemCount = page.remaining;
  }
  return { apiVersion: apiVersionOf(entry.info), kind: entry.info.listKind, metadata, items: page.items };
}

interface PageRequest {
  prefix: string;
  startKey?: string;
  limit: number;
  select(obj: KubeObject): boolean;
}

async function readPage(store: Store, entry: ResourceEntry, plan: ReadPlan, req: PageRequest): Promise<Page> {
  const { cache } = store;
  const at = plan.mode === 'exact' || plan.mode === 'notOlderThan' ? plan.revision : 0;
  if (!cache) return listStorage(store, req, plan.mode === 'exact' ? at : 0, plan.mode === 'notOlderThan' ? at : 0);
  const collection = cache.collection(entry.keyPrefix);
  const fromCache = (snapshot?: number): Page => ({
    ...collection.list({ prefix: req.prefix, startKey: req.startKey, limit: req.limit, at: snapshot, selects: req.select }),
    revision: snapshot ?? cache.revision,
  });
  switch (plan.mode) {
    case 'consistent':
      return (await cache.catchUp()).caughtUp ? fromCache() : listStorage(store, req, 0);
    case 'any':
      return cache.ready ? fromCache() : listStorage(store, req, 0);
    case 'notOlderThan':
      return (await cache.reach(at)) ? fromCache() : listStorage(store, req, 0, at);
    case 'exact':
      if (cache.ready && at > cache.revision) await cache.waitFor(at, cache.options.freshnessWaitMs);
      return cache.hasSnapshot(collection, at) ? fromCache(at) : listStorage(store, req, at);
  }
}

/** A page read from storage at `revision` (0: current), which must not be older than `notOlderThan`. */
async function listStorage(store: Store, req: PageRequest, revision: number, notOlderThan = 0): Promise<Page> {
  const items: KubeObject[] = [];
  let startKey = req.startKey;
  let more = false;
  let remaining = 0;
  let lastKey = '';
  try {
    for (;;) {
      const page = await store.storage.list({ prefix: req.prefix, startKey, limit: req.limit || undefined, revision: revision || undefined });
      revision = page.revision;
      if (revision < notOlderThan) throw newTooLargeResourceVersion(notOlderThan, revision, 1);
      let consumed = 0;
      for (const kv of page.kvs) {
        lastKey = kv.key;
        consumed++;
        const obj = decodeFromStorage(kv);
        if (req.select(obj)) items.push(obj);
        if (req.limit && items.length >= req.limit) break;
      }
      // With selectors the limit can be reached inside a page; the rest of that page is still to come.
      more = page.more || consumed < page.kvs.length;
      remaining = page.remaining + (page.kvs.length - consumed);
      if (!req.limit || items.length >= req.limit || !page.more) break;
      startKey = `${lastKey}\u0000`;
    }
  } catch (err) {
    if (isStorageError(err, 'TooLargeRevision')) throw newTooLargeResourceVersion(revision, await store.storage.currentRevision(), 1);
    throw err;
  }
  return { items, revision, lastKey, more, remaining };
}

/**
 * Get per the spec's get table: resourceVersion unset reads storage (Most recent); "0" is served by the watch
 * cache as it is (Any); another value once the cache has reached it (Not older than), else 504.
 */
export async function getObject(store: Store, ctx: RequestContext, name: string, resourceVersion: string): Promise<KubeObject> {
  const rv = parseResourceVersion(resourceVersion);
  const { cache } = store;
  if (rv === undefined || !cache || !(await cache.reach(rv))) return store.get(ctx, name);
  const obj = cache.collection(ctx.entry.keyPrefix).get(objectKey(ctx.entry, ctx.namespace, name));
  if (!obj) throw newNotFound(groupResource(ctx.entry), name);
  return obj;
}
