import {
  everythingFieldSelector,
  everythingLabelSelector,
  newBadRequest,
  newResourceExpired,
  parseFieldSelector,
  parseLabelSelector,
  type KubeList,
  type KubeObject,
  type ParsedFieldSelector,
  type ParsedLabelSelector,
} from '@kapi/apimachinery';
import { decodeFromStorage } from './codec.js';
import { fromStorageError } from './errors.js';
import { fieldLabels, supportedFieldLabels } from './field-labels.js';
import { apiVersionOf, collectionPrefix, type ResourceEntry } from './resources.js';
import type { RequestContext, Store } from './store.js';

export interface ListOptions {
  labelSelector: ParsedLabelSelector;
  fieldSelector: ParsedFieldSelector;
  limit: number;
  continueToken: string;
  resourceVersion: string;
  resourceVersionMatch: string;
}

/** Every object of a collection, at the current revision: what in-process controllers list with. */
export const ALL_OBJECTS: ListOptions = Object.freeze({
  labelSelector: everythingLabelSelector,
  fieldSelector: everythingFieldSelector,
  limit: 0,
  continueToken: '',
  resourceVersion: '',
  resourceVersionMatch: '',
});

/** Parses the list query parameters (labelSelector, fieldSelector, limit, continue, resourceVersion...). */
export function parseListOptions(entry: ResourceEntry, query: URLSearchParams): ListOptions {
  const labelSelector = parseLabelSelector(query.get('labelSelector') ?? '');
  const fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '');
  const supported = supportedFieldLabels(entry.info.group, entry.info.kind);
  for (const r of fieldSelector.requirements) {
    if (!supported.includes(r.field)) {
      throw newBadRequest(`field label not supported: ${r.field}`);
    }
  }
  const limitText = query.get('limit') ?? '';
  const limit = limitText ? Number.parseInt(limitText, 10) : 0;
  if (limitText && (!Number.isFinite(limit) || String(limit) !== limitText.trim())) {
    throw newBadRequest(`invalid limit: ${limitText}`);
  }
  return {
    labelSelector,
    fieldSelector,
    limit: Math.max(0, limit),
    continueToken: query.get('continue') ?? '',
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: query.get('resourceVersionMatch') ?? '',
  };
}

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
    if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || typeof parsed.start !== 'string') throw new Error();
    return parsed;
  } catch {
    throw newBadRequest(`continue key is not valid: ${token}`);
  }
}

/** Whether an object passes the list's label and field selectors. */
export function selects(entry: ResourceEntry, options: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>, obj: KubeObject): boolean {
  const labels = (obj.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  return options.labelSelector.matches(labels) && options.fieldSelector.matches(fieldLabels(entry.info.group, entry.info.kind, obj));
}

/**
 * A list of a collection (in one namespace or all), at the current revision or the one a continue token
 * carries, filtered by selectors and cut into chunks of `limit`. Every chunk of one listing is read at the same
 * revision, so the chunks form one consistent snapshot.
 */
export async function listObjects(store: Store, ctx: RequestContext, options: ListOptions): Promise<KubeList> {
  const { entry } = ctx;
  const prefix = collectionPrefix(entry, ctx.namespace);
  let revision = 0;
  let startKey: string | undefined;
  if (options.continueToken) {
    if (options.resourceVersion && options.resourceVersion !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    const token = decodeContinue(options.continueToken);
    revision = token.rv;
    startKey = prefix + token.start;
    if (!startKey.startsWith(prefix)) throw newBadRequest(`continue key is not valid: ${options.continueToken}`);
  } else if (options.resourceVersionMatch === 'Exact' && options.resourceVersion) {
    revision = Number(options.resourceVersion);
  }
  const filtered = !options.labelSelector.isEmpty() || !options.fieldSelector.isEmpty();
  const items: KubeObject[] = [];
  let more = false;
  let remaining = 0;
  let lastKey = '';
  try {
    for (;;) {
      const page = await store.storage.list({ prefix, startKey, limit: options.limit || undefined, revision: revision || undefined });
      revision = page.revision;
      for (const kv of page.kvs) {
        lastKey = kv.key;
        const obj = decodeFromStorage(kv);
        if (!filtered || selects(entry, options, obj)) items.push(obj);
        if (options.limit && items.length >= options.limit) break;
      }
      // With selectors the limit can be reached inside a page; the rest of that page is still to come.
      const consumedAll = page.kvs.length === 0 || lastKey === page.kvs[page.kvs.length - 1].key;
      more = page.more || !consumedAll;
      remaining = page.remaining;
      if (!options.limit || items.length >= options.limit || !page.more) break;
      startKey = `${lastKey}\u0000`;
    }
  } catch (err) {
    if (options.continueToken && (err as { code?: string }).code === 'Compacted') {
      throw newResourceExpired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
    }
    throw fromStorageError(entry, '', err);
  }
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (options.limit && more) {
    metadata.continue = encodeContinue(revision, `${lastKey.slice(prefix.length)}\u0000`);
    if (!filtered) metadata.remainingItemCount = remaining;
  }
  return { apiVersion: apiVersionOf(entry.info), kind: entry.info.listKind, metadata, items };
}
