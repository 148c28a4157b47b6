import type { KubeObject } from '@kapi/apimachinery';
import { apiVersionOf, type ResourceEntry } from './resources.js';

/**
 * Conversion at the storage boundary (kube's storage codec): what the Store writes goes to the kind's storage
 * version, what it reads comes back in the version of the request's resource. Kinds served in one version (no
 * conversion) pass through untouched.
 */
export function toStorageVersion(entry: ResourceEntry, obj: KubeObject): KubeObject {
  const conversion = entry.conversion;
  if (!conversion) return obj;
  const target = apiVersionOf({ group: entry.info.group, version: conversion.storageVersion });
  return obj.apiVersion === target ? obj : conversion.convert(obj, target);
}

/** A stored object (in whichever version it was stored) in the version of `entry`. */
export function fromStorageVersion(entry: ResourceEntry, obj: KubeObject): KubeObject {
  const conversion = entry.conversion;
  if (!conversion) return obj;
  const target = apiVersionOf(entry.info);
  return obj.apiVersion === target ? obj : conversion.convert(obj, target);
}
