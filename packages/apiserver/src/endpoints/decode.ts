import { dropNulls, dropNullsBy, newBadRequest, walkFieldTree, type FieldTree, type KubeObject } from '@kapi/apimachinery';
import { apiVersionOf, type ResourceEntry } from '../registry/resources.js';
import { MEDIA_TYPES } from './media/index.js';
import type { BodyFormat } from './negotiate.js';

/**
 * Drops the empty strings Go writes for unset non-pointer string fields, which its JSON encoding would omit, so
 * a Protobuf body reads like the JSON one (`generateName: ""` is not a request for a generated name). Map
 * values are data and stay as they are; the field tree tells maps from structs.
 */
function dropGoEmptyStrings(tree: FieldTree, typeKey: string, value: unknown): void {
  walkFieldTree(tree, typeKey, value, {
    onObject(type, obj) {
      for (const [key, child] of Object.entries(obj)) if (child === '' && type.props[key] !== undefined) delete obj[key];
    },
  });
}

/**
 * Decodes a request body for `entry` (JSON, YAML or Protobuf) into its JSON form, and checks that it is one
 * object of the URL's kind: a missing kind or apiVersion is filled in, a different one is 400, and so is a List.
 */
export function decodeObject(entry: ResourceEntry, format: BodyFormat, body: Uint8Array): KubeObject {
  return decodeObjectWithDuplicates(entry, format, body).obj;
}

/** {@link decodeObject}, also naming the fields the body repeats (JSON, YAML and CBOR), for field validation. */
export function decodeObjectWithDuplicates(entry: ResourceEntry, format: BodyFormat, body: Uint8Array): { obj: KubeObject; duplicates: string[] } {
  if (body.length === 0) throw newBadRequest('the request body is empty');
  const message = format === 'protobuf' ? { codec: entry.codec(), message: entry.info.protobuf.message } : undefined;
  const decoded = MEDIA_TYPES[format].decode(body, message);
  const value = decoded.value;
  if (format === 'protobuf') {
    const typed = value as { apiVersion?: unknown; kind?: unknown };
    checkType(entry, typed.apiVersion, typed.kind);
    dropGoEmptyStrings(entry.group.fieldTree, entry.typeKey, value);
  }
  const duplicates = decoded.duplicates();
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest(`the body of the request must be a single ${entry.info.kind} object`);
  }
  // Go's decoding into typed objects drops nulls; a custom resource keeps them where its schema says `nullable`.
  const obj = dropNullsBy(entry.group.fieldTree, entry.typeKey, value) as KubeObject;
  checkType(entry, obj.apiVersion, obj.kind);
  if (Array.isArray((obj as { items?: unknown }).items) && !entry.group.fieldTree.types[entry.typeKey]?.props.items) {
    throw newBadRequest(`a list of objects cannot be sent to ${entry.info.plural}: send one ${entry.info.kind} per request`);
  }
  obj.apiVersion = apiVersionOf(entry.info);
  obj.kind = entry.info.kind;
  return { obj, duplicates };
}

function checkType(entry: ResourceEntry, apiVersion: unknown, kind: unknown) {
  const expected = apiVersionOf(entry.info);
  if (typeof kind === 'string' && kind !== '' && kind !== entry.info.kind) {
    throw newBadRequest(`the kind of the object (${kind}) does not match the kind on the URL (${entry.info.kind})`);
  }
  if (typeof apiVersion === 'string' && apiVersion !== '' && apiVersion !== expected) {
    throw newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
  }
}

/** Parses a JSON, YAML or CBOR body that is not a kind of this group (patches, DeleteOptions). */
export function decodeLoose(format: 'json' | 'yaml' | 'cbor', body: Uint8Array): unknown {
  if (body.length === 0) return undefined;
  const { value } = MEDIA_TYPES[format].decode(body);
  return format === 'cbor' ? dropNulls(value) : value;
}
