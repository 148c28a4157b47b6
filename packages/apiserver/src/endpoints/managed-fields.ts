import { newInvalid, type KubeObject } from '@kapi/apimachinery';
import { applyObject, BUILTIN_CREATE_BASE, resetFieldsFor, updateManagedFields, type ApplySchema } from '../apply/index.js';
import { nowTimestamp } from '../registry/object-meta.js';
import { apiVersionOf, type ResourceEntry } from '../registry/resources.js';

const MAX_MANAGER_LENGTH = 128;

/**
 * The field manager of a write: the `fieldManager` parameter, or (as kube does) the User-Agent up to its first
 * `/`. Apply requires an explicit one. Invalid names are 422 on PatchOptions/CreateOptions/UpdateOptions.
 */
export function fieldManagerOf(query: URLSearchParams, userAgent: string | null, options: { apply: boolean; optionsKind: string }): string {
  const given = query.get('fieldManager');
  const invalid = (type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueTooLong', message: string, badValue?: string) =>
    newInvalid({ group: 'meta.k8s.io', kind: options.optionsKind }, '', [{ type, field: 'fieldManager', badValue, message }]);
  if (given === null || given === '') {
    if (options.apply) throw invalid('FieldValueRequired', 'is required for apply patch');
    return (userAgent ?? '').split('/')[0].slice(0, MAX_MANAGER_LENGTH);
  }
  if (given.length > MAX_MANAGER_LENGTH) throw invalid('FieldValueTooLong', `may not be more than ${MAX_MANAGER_LENGTH} bytes`, given);
  if (!/^[\x20-\x7e]*$/.test(given)) throw invalid('FieldValueInvalid', 'must be made of printable characters', given);
  return given;
}

function schemaOf(entry: ResourceEntry): ApplySchema {
  return { patchMeta: entry.info.patchMeta, fieldTree: entry.group.fieldTree, rootType: entry.typeKey };
}

/** The Go zero value kube starts a create from: built-in kinds have spec and status structs; others start empty. */
const createBaseOf = (entry: ResourceEntry) => (entry.group.strategicMergePatch ? BUILTIN_CREATE_BASE : {});

/**
 * Records who changed what on an ordinary write (create, update, patch): the manager takes the fields it set or
 * changed, as an `Update` entry of metadata.managedFields.
 */
export function trackWrite(entry: ResourceEntry, subresource: string, manager: string, old: KubeObject | undefined, updated: KubeObject): void {
  const managedFields = updateManagedFields({
    old,
    updated,
    manager,
    apiVersion: apiVersionOf(entry.info),
    subresource: subresource || undefined,
    meta: schemaOf(entry),
    now: nowTimestamp(),
    resetFields: resetFieldsFor(entry.info, subresource || undefined),
    createBase: createBaseOf(entry),
  });
  const meta = (updated.metadata ??= {}) as Record<string, unknown>;
  if (managedFields.length) meta.managedFields = managedFields;
  else delete meta.managedFields;
}

/**
 * Server-side apply of a configuration to the live object (or to nothing, for a create): merged per the
 * schema's list and map types, with ownership in metadata.managedFields and 409 on conflicts unless forced.
 */
export function applyConfiguration(
  entry: ResourceEntry,
  subresource: string,
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  force: boolean,
): KubeObject {
  const result = applyObject({
    live,
    applied,
    manager,
    apiVersion: apiVersionOf(entry.info),
    force,
    meta: schemaOf(entry),
    subresource: subresource || undefined,
    now: nowTimestamp(),
    resetFields: resetFieldsFor(entry.info, subresource || undefined),
    createBase: createBaseOf(entry),
  });
  const object = result.object as KubeObject;
  (object.metadata as Record<string, unknown>).managedFields = result.managedFields;
  if (!result.managedFields.length) delete (object.metadata as Record<string, unknown>).managedFields;
  return object;
}
