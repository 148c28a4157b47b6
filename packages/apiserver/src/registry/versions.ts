import { gvkFromObject, newInternalError, newInvalid, type KubeObject, type ResourceInfo } from '@kapi/apimachinery';
import { deepFreeze } from '../cacher/cache-event.js';
import { apiVersionOf, type ResourceEntry, type ResourceRegistry } from './resources.js';
// Synchronous conversions stay synchronous (watch framing pays no await).
import { andThen, isPromise, type Maybe } from '../maybe.js';

/** Objects in `apiVersion`, converting those in another (one call for all of them). */
function convertAll(entry: ResourceEntry, objects: KubeObject[], apiVersion: string): Maybe<KubeObject[]> {
  const conversion = entry.conversion!;
  const others = objects.filter((o) => o.apiVersion !== apiVersion);
  if (!others.length) return objects;
  return andThen(conversion.convert(others, apiVersion), (converted) => {
    let next = 0;
    return objects.map((o) => (o.apiVersion === apiVersion ? o : converted[next++]));
  });
}

/** The apiVersion a kind's objects are stored in: its conversion's, in its own group or another's (storedAs). */
export const storageApiVersionOf = (entry: ResourceEntry): string | undefined => {
  const conversion = entry.conversion;
  if (!conversion) return undefined;
  return conversion.storageApiVersion ?? apiVersionOf({ group: entry.info.group, version: conversion.storageVersion });
};

/**
 * Conversion at the storage boundary (kube's storage codec): what the Store writes goes to the kind's storage
 * version, what it reads comes back in the version of the request's resource. Kinds served in one version (no
 * conversion) pass through untouched.
 */
export function toStorageVersion(entry: ResourceEntry, obj: KubeObject): Maybe<KubeObject> {
  const conversion = entry.conversion;
  if (!conversion) return obj;
  const storageApiVersion = storageApiVersionOf(entry)!;
  if (obj.apiVersion === storageApiVersion) return obj;
  return andThen(convertAll(entry, [obj], storageApiVersion), ([converted]) => checkConverted(entry, converted, storageApiVersion));
}

/**
 * The types of what a conversion produced, checked against the storage version's schema before it is stored, as
 * kube validates the converted (internal) object: values a conversion restored from an annotation (which any
 * client may write) never reach storage with a type the storage version does not allow. (A kind stored as another
 * group's resource has no validator of that form in its group: its conversion is trusted.)
 */
function checkConverted(entry: ResourceEntry, obj: KubeObject, storageApiVersion: string): KubeObject {
  const check = entry.group.typeValidators?.[`${storageApiVersion}/${entry.info.kind}`];
  const errors = check?.(obj) ?? [];
  if (errors.length) throw newInvalid({ group: entry.info.group, kind: entry.info.kind }, String(obj.metadata?.name ?? ''), errors);
  return obj;
}

/** Stored objects (in whichever version each was stored) in the version of `entry`. */
export function fromStorageVersion(entry: ResourceEntry, objects: KubeObject[]): Maybe<KubeObject[]> {
  if (!entry.conversion) return objects;
  return convertAll(entry, objects, apiVersionOf(entry.info));
}

/** One stored object in the version of `entry`. */
export const fromStorage = (entry: ResourceEntry, obj: KubeObject): Maybe<KubeObject> => andThen(fromStorageVersion(entry, [obj]), (o) => o[0]);

/** Whether a stored object is in its kind's storage version (a write of it unchanged must still rewrite it if not). */
export function inStorageVersion(entry: ResourceEntry, stored: KubeObject): boolean {
  return !entry.conversion || stored.apiVersion === storageApiVersionOf(entry);
}

const shared = new WeakMap<KubeObject, Map<string, Maybe<KubeObject>>>();

/**
 * A frozen stored object that every watcher shares (the watch cache's) in the version of `entry`, converted once
 * per version however many watchers ask, and frozen in turn so that its encodings are shared too (frameOnce).
 */
export function fromStorageShared(entry: ResourceEntry, obj: KubeObject): Maybe<KubeObject> {
  if (!entry.conversion || !Object.isFrozen(obj)) return fromStorage(entry, obj);
  const apiVersion = apiVersionOf(entry.info);
  if (obj.apiVersion === apiVersion) return obj;
  let byVersion = shared.get(obj);
  if (!byVersion) shared.set(obj, (byVersion = new Map()));
  let converted = byVersion.get(apiVersion);
  if (!converted) {
    converted = andThen(fromStorage(entry, obj), (o) => deepFreeze(o));
    byVersion.set(apiVersion, converted);
    // A conversion that failed is not kept: the next watcher tries again and gets its own error.
    if (converted instanceof Promise) converted.then((o) => byVersion.set(apiVersion, o), () => byVersion.delete(apiVersion));
  }
  return converted;
}

/**
 * `obj` in the version of `to`, a resource equivalent to the one of obj's kind (PluginHost.convertObject): to the
 * kind's storage version, then to `to`'s version, as a write through one and a read through the other would.
 */
export async function convertObject(registry: ResourceRegistry, obj: KubeObject, to: ResourceInfo): Promise<KubeObject> {
  const target = registry.lookup(to.group, to.version, to.plural);
  const { group, version, kind } = gvkFromObject(obj);
  const source = registry.byKind(group, version, kind);
  if (!target || !source) throw newInternalError(`cannot convert ${String(obj.apiVersion)}, Kind=${String(obj.kind)} to ${apiVersionOf(to)}`);
  if (source === target) return obj;
  return fromStorage(target, await toStorageVersion(source, obj));
}
