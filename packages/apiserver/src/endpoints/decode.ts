import { decodeEnvelope, isStatusError, newBadRequest, walkFieldTree, type FieldTree, type KubeObject } from '@kapi/apimachinery';
import { parse as parseYaml } from 'yaml';
import { checkDecoded, checkYamlDepth, MAX_YAML_ALIAS_COUNT } from '../limits/nesting.js';
import { apiVersionOf, type ResourceEntry } from '../registry/resources.js';
import { decodeCbor } from './cbor.js';
import { duplicateCborFields } from './cbor-duplicates.js';
import { duplicateJsonFields, duplicateYamlFields } from './duplicate-fields.js';
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

/** Drops `null` members recursively: kube treats an explicit null as an unset field (Go's JSON decoding). */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

/**
 * Parses a JSON or YAML text, bounded: YAML nesting is checked before composing and alias expansion is capped;
 * the value's depth and numbers are checked after (checkDecoded), before anything recurses over it.
 */
function parseText(format: 'json' | 'yaml', text: string): unknown {
  let value: unknown;
  try {
    if (format === 'json') value = JSON.parse(text);
    else {
      checkYamlDepth(text);
      value = parseYaml(text, { uniqueKeys: false, maxAliasCount: MAX_YAML_ALIAS_COUNT });
    }
  } catch (err) {
    if (isStatusError(err)) throw err;
    throw newBadRequest(`error decoding ${format === 'json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
  return checkDecoded(value, format === 'json' ? 'JSON' : 'YAML');
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
  let value: unknown;
  let duplicates: string[] = [];
  if (format === 'protobuf') {
    const { typeMeta, raw } = decodeEnvelope(body);
    checkType(entry, typeMeta.apiVersion, typeMeta.kind);
    const decoded = entry.codec().decode(entry.info.protobuf.message, raw);
    dropGoEmptyStrings(entry.group.fieldTree, entry.typeKey, decoded);
    value = { apiVersion: typeMeta.apiVersion || undefined, kind: typeMeta.kind || undefined, ...decoded };
  } else if (format === 'cbor') {
    value = decodeCbor(body);
    duplicates = duplicateCborFields(body);
  } else {
    const text = new TextDecoder().decode(body);
    value = parseText(format, text);
    duplicates = format === 'json' ? duplicateJsonFields(text) : duplicateYamlFields(text);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest(`the body of the request must be a single ${entry.info.kind} object`);
  }
  const obj = dropNulls(value) as KubeObject;
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
  if (format === 'cbor') return dropNulls(decodeCbor(body));
  return parseText(format, new TextDecoder().decode(body));
}
