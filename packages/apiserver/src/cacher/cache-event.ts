import type { KubeObject } from '@kapi/apimachinery';
import { compactTree } from './compact.js';

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * One change the watch cache saw, shared by every watcher (kube's watchCacheEvent). Objects are decoded once and
 * frozen, so every reader and watcher shares them and each encoding is computed once (see `frameOnce`).
 */
export interface CacheEvent {
  /** ADDED: the key was created; MODIFIED: updated; DELETED: removed. */
  type: CacheEventType;
  key: string;
  /** The object after the change; for DELETED its last state, at the deletion's resourceVersion. */
  obj: KubeObject;
  /** The object before the change (absent for ADDED). */
  prev?: KubeObject;
  /** The storage revision of the change. */
  rv: number;
  /** `prev` at this event's resourceVersion, for watchers that see the object leave their selection as DELETED. */
  leaving?: KubeObject;
  /** What the event holds, in stored bytes (the object's, and the one it replaced): the history's byte budget. */
  bytes?: number;
}

/** Objects deepFreeze froze whole: nothing in them can change, so what is derived from them can be kept. */
const frozenTrees = new WeakSet<object>();

/**
 * Freezes an object and everything in it: cached objects are shared by every reader and must never change. What is
 * inside is held compactly (compactTree): equal parts of different objects may be one shared value.
 */
export function deepFreeze<T>(value: T): T {
  const frozen = compactTree(value) as T;
  if (frozen && typeof frozen === 'object') frozenTrees.add(frozen);
  return frozen;
}

/** Whether deepFreeze froze `value` and all it holds (a watch cache object), so that its encodings never go stale. */
export const isDeepFrozen = (value: unknown): boolean => typeof value === 'object' && value !== null && frozenTrees.has(value);

/** A frozen copy of `obj` stamped with another resourceVersion (an old state reported at a later change). */
export function atResourceVersion(obj: KubeObject, rv: number): KubeObject {
  return deepFreeze({ ...obj, metadata: { ...(obj.metadata as object), resourceVersion: String(rv) } });
}

/** The object a watcher gets when `event` takes an object out of its selection: the old state, at the new version. */
export function leavingObject(event: CacheEvent): KubeObject {
  event.leaving ??= atResourceVersion(event.prev ?? event.obj, event.rv);
  return event.leaving;
}
