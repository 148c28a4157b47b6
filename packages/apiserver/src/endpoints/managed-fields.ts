import { newInvalid, type KubeObject, type ManagedFieldsEntry } from '@kapi/apimachinery';
import {
  applyAcrossVersions, applyObject, BUILTIN_CREATE_BASE, resetFieldsFor, updateAcrossVersions, updateManagedFields,
  type ApplyResult, type ApplySchema, type VersionConverter,
} from '../apply/index.js';
import { nowTimestamp } from '../registry/object-meta.js';
import { apiVersionOf, type ResourceEntry, type ResourceRegistry } from '../registry/resources.js';
import { andThen } from '../maybe.js';

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

const schemas = new WeakMap<ResourceEntry, ApplySchema>();

/** The apply schema of an entry, built once (the engine resolves it once per schema object). */
function schemaOf(entry: ResourceEntry): ApplySchema {
  let schema = schemas.get(entry);
  if (!schema) schemas.set(entry, (schema = { patchMeta: entry.info.patchMeta, fieldTree: entry.group.fieldTree, rootType: entry.typeKey }));
  return schema;
}

/** The Go zero value kube starts a create from: built-in kinds have spec and status structs; others start empty. */
const createBaseOf = (entry: ResourceEntry) => (entry.group.strategicMergePatch ? BUILTIN_CREATE_BASE : {});

/** Where field ownership finds the written kind in the other versions of its group (the server's registry). */
export type VersionRegistry = Pick<ResourceRegistry, 'byKind'>;

const inOtherVersion = (obj: KubeObject | undefined, apiVersion: string): boolean => {
  const entries = (obj?.metadata as { managedFields?: unknown } | undefined)?.managedFields;
  return Array.isArray(entries) && entries.some((e) => (e as ManagedFieldsEntry | null)?.apiVersion !== apiVersion);
};

/**
 * How field ownership reaches the other versions of the kind written (kube's versionConverter): a version's schema
 * is its entry's, and objects convert with the kind's conversion. A kind whose versions do not convert needs the
 * others only to drop managers of versions it is not served in: none when every entry is in the request's version.
 */
function converterOf(entry: ResourceEntry, subresource: string, registry: VersionRegistry | undefined, a: KubeObject | undefined, b?: KubeObject): VersionConverter | undefined {
  if (!registry) return undefined;
  const conversion = entry.conversion;
  const { group, kind } = entry.info;
  if (!conversion && !inOtherVersion(a, apiVersionOf(entry.info)) && !inOtherVersion(b, apiVersionOf(entry.info))) return undefined;
  const converter: VersionConverter = {
    version(apiVersion) {
      const slash = apiVersion.lastIndexOf('/');
      if ((slash < 0 ? '' : apiVersion.slice(0, slash)) !== group) return undefined;
      const other = registry.byKind(group, apiVersion.slice(slash + 1), kind);
      if (!other) return undefined;
      return { meta: schemaOf(other), resetFields: resetFieldsFor(other.info, subresource || undefined) };
    },
  };
  // The engine's objects may lack their type (the zero object of a create): conversions read it.
  if (conversion) converter.convert = (objects, from, to) => conversion.convert(objects.map((o) => ({ ...(o as KubeObject), apiVersion: from, kind })), to);
  return converter;
}

function setManagedFields(obj: KubeObject, managedFields: readonly ManagedFieldsEntry[]): void {
  const meta = (obj.metadata ??= {}) as Record<string, unknown>;
  if (managedFields.length) meta.managedFields = managedFields;
  else delete meta.managedFields;
}

/**
 * Records who changed what on an ordinary write (create, update, patch): the manager takes the fields it set or
 * changed, as an `Update` entry of metadata.managedFields. With the `registry`, managers of other versions are
 * compared in theirs (those of versions no longer served are dropped); when that takes an asynchronous conversion,
 * the answer is a promise, to await before `updated` is complete. Synchronous otherwise.
 */
export function trackWrite(
  entry: ResourceEntry,
  subresource: string,
  manager: string,
  old: KubeObject | undefined,
  updated: KubeObject,
  registry?: VersionRegistry,
): void | Promise<void> {
  const input = {
    old,
    updated,
    manager,
    apiVersion: apiVersionOf(entry.info),
    subresource: subresource || undefined,
    meta: schemaOf(entry),
    now: nowTimestamp(),
    resetFields: resetFieldsFor(entry.info, subresource || undefined),
    createBase: createBaseOf(entry),
  };
  const converter = converterOf(entry, subresource, registry, old, updated);
  if (!converter) return setManagedFields(updated, updateManagedFields(input));
  return andThen(updateAcrossVersions(input, converter), (managedFields) => setManagedFields(updated, managedFields));
}

/**
 * Server-side apply of a configuration to the live object (or to nothing, for a create): merged per the
 * schema's list and map types, with ownership in metadata.managedFields and 409 on conflicts unless forced. With
 * the `registry`, managers of other versions are compared in theirs (those of versions no longer served are
 * dropped), and the answer may be a promise (an asynchronous conversion's).
 */
export function applyConfiguration(
  entry: ResourceEntry,
  subresource: string,
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  force: boolean,
  registry?: VersionRegistry,
): KubeObject | Promise<KubeObject> {
  const input = {
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
  };
  const converter = converterOf(entry, subresource, registry, live);
  if (!converter) return storedForm(applyObject(input));
  return andThen(applyAcrossVersions(input, converter), storedForm);
}

function storedForm(result: ApplyResult): KubeObject {
  const object = result.object as KubeObject;
  setManagedFields(object, result.managedFields);
  return object;
}
