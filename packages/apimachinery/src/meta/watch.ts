import type { Status } from '../generated/meta/v1/index.js';
import { toStatus } from '../errors/to-status.js';

/** The event types of a watch stream. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event as sent on the wire: `{type, object}`. */
export interface TypedWatchEvent<T = unknown> {
  type: WatchEventType;
  object: T;
}

/** The annotation a BOOKMARK carries when it ends the initial events of a `sendInitialEvents=true` watch. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** A watch event of `type` carrying `object`. */
export function watchEvent<T>(type: WatchEventType, object: T): TypedWatchEvent<T> {
  return { type, object };
}

/** The object of a BOOKMARK event: only kind, apiVersion and metadata.resourceVersion (and the end annotation). */
export interface BookmarkObject {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string; annotations?: Record<string, string> };
}

/**
 * A BOOKMARK event for objects of `typeMeta` at `resourceVersion`. With `initialEventsEnd`, it is the bookmark that
 * closes the initial events of a streaming list (annotation `k8s.io/initial-events-end: "true"`).
 */
export function bookmarkEvent(
  typeMeta: { apiVersion: string; kind: string },
  resourceVersion: string,
  options: { initialEventsEnd?: boolean } = {},
): TypedWatchEvent<BookmarkObject> {
  const metadata: BookmarkObject['metadata'] = { resourceVersion };
  if (options.initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return { type: 'BOOKMARK', object: { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion, metadata } };
}

/** An ERROR event carrying the Status of `err` (a StatusError's own, or a 500 for anything else). */
export function errorEvent(err: unknown): TypedWatchEvent<Status> {
  return { type: 'ERROR', object: toStatus(err) };
}
