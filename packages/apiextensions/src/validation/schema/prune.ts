// kube's pruning algorithm (pkg/apiserver/schema/pruning): drop object fields the structural schema does not
// specify, keeping apiVersion, kind and metadata of embedded resources.
import { isObject } from '../json.js';
import type { JSONSchema } from '../types.js';
import { additionalPropertiesSchema, hasAdditionalProperties, isEmbeddedResource, itemsSchema, preservesUnknownFields, properties } from './nodes.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** Prunes `x` in place. `isResourceRoot` treats the schema as an embedded resource (its metadata kept). */
export function prune(x: unknown, s: JSONSchema | undefined, isResourceRoot: boolean): void {
  const embedded = isResourceRoot || (s !== undefined && isEmbeddedResource(s));
  pruneNode(x, s, embedded);
}

function pruneNode(x: unknown, s: JSONSchema | undefined, embedded: boolean): void {
  if (s && preservesUnknownFields(s)) {
    skipPrune(x, s, embedded);
    return;
  }
  if (Array.isArray(x)) {
    const items = s ? itemsSchema(s) : undefined;
    for (const v of x) pruneNode(v, items, items !== undefined && isEmbeddedResource(items));
    return;
  }
  if (!isObject(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) delete x[k];
    return;
  }
  const props = Object.fromEntries(properties(s));
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    if (props[k]) pruneNode(x[k], props[k], isEmbeddedResource(props[k]));
    else if (hasAdditionalProperties(s)) {
      const ap = additionalPropertiesSchema(s);
      pruneNode(x[k], ap, ap !== undefined && isEmbeddedResource(ap));
    } else delete x[k];
  }
}

function skipPrune(x: unknown, s: JSONSchema, embedded: boolean): void {
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    if (items) for (const v of x) skipPrune(v, items, isEmbeddedResource(items));
    return;
  }
  if (!isObject(x)) return;
  const props = Object.fromEntries(properties(s));
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    if (props[k]) pruneNode(x[k], props[k], isEmbeddedResource(props[k]));
    else if (hasAdditionalProperties(s)) {
      const ap = additionalPropertiesSchema(s);
      pruneNode(x[k], ap, ap !== undefined && isEmbeddedResource(ap));
    }
  }
}
