import { newBadRequest, type KubeList, type KubeObject } from '@kapi/apimachinery';
import type { ListPage, ListRequest, ReadPlan } from '../storage/interfaces.js';
import { fieldLabels } from './field-labels.js';
import { EXACT, NOT_OLDER_THAN, parseResourceVersion, type ListOptions } from './list-options.js';
import { apiVersionOf, collectionPrefix, type ResourceEntry } from './resources.js';
import { fromStorageShared } from './versions.js';

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

export const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Whether an object passes the list's label and field selectors. */
export function selects(entry: ResourceEntry, options: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>, obj: KubeObject): boolean {
  const labels = (obj.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  if (!options.labelSelector.matches(labels)) return false;
  // Field labels are worth computing only for a selector that reads them (every watcher runs this per event).
  return options.fieldSelector.isEmpty() || options.fieldSelector.matches(fieldLabels(entry, inRequestVersion(entry, obj)));
}

/**
 * A stored object as field labels read it: in the version of the request, whose fields the selector names (kube
 * serves each version of a custom resource from its own storage). A conversion that only answers asynchronously (a
 * webhook) is not waited for here: the object's own version is read then, its fields usually of the same names.
 */
function inRequestVersion(entry: ResourceEntry, obj: KubeObject): KubeObject {
  if (!entry.conversion) return obj;
  try {
    const converted = fromStorageShared(entry, obj);
    return converted instanceof Promise ? obj : converted;
  } catch {
    return obj; // the read that answers the object reports the failed conversion
  }
}

/** The read plan of a list without a continue token, per kube's list table (docs/lists-and-watches.md). */
function planList(options: ListOptions): ReadPlan {
  const rv = parseResourceVersion(options.resourceVersion);
  if (options.resourceVersionMatch === EXACT) return { mode: 'exact', revision: rv! };
  if (rv === undefined) return { mode: 'consistent' };
  if (rv === 0) return { mode: 'any' };
  if (options.resourceVersionMatch === NOT_OLDER_THAN || !options.limit) return { mode: 'notOlderThan', revision: rv };
  return { mode: 'exact', revision: rv };
}

/**
 * What storage is asked for a list (in one namespace or all), and how its page becomes the list: every chunk of
 * one listing is read at the first chunk's revision (the continue token carries it and the next key), so the
 * chunks form one consistent snapshot. `options` must have been validated.
 */
export function listRequest(entry: ResourceEntry, namespace: string, options: ListOptions): { request: ListRequest; toList(page: ListPage): KubeList } {
  const prefix = collectionPrefix(entry, namespace);
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
  const request: ListRequest = {
    keyPrefix: entry.keyPrefix,
    prefix,
    startKey,
    limit: options.limit,
    select: (obj) => !filtered || selects(entry, options, obj),
    plan,
  };
  const toList = (page: ListPage): KubeList => {
    const metadata: Record<string, unknown> = { resourceVersion: String(page.revision) };
    if (options.limit && page.more) {
      metadata.continue = encodeContinue(page.revision, `${page.lastKey.slice(prefix.length)}\u0000`);
      if (!filtered) metadata.remainingItemCount = page.remaining;
    }
    return { apiVersion: apiVersionOf(entry.info), kind: entry.info.listKind, metadata, items: page.items };
  };
  return { request, toList };
}
