// The Kubernetes vendor extensions of a schema node: x-kubernetes-preserve-unknown-fields, -map-type, -list-type and
// -list-map-keys (part of kube's ValidateCustomResourceDefinitionOpenAPISchema).
import type { FieldError } from '@kapi/apimachinery';
import { child, forbidden, invalid, key, notSupported, required } from '../field.js';
import { has, isObject } from '../json.js';
import type { JSONSchema } from '../types.js';
import { itemsSchema } from './nodes.js';

/** The options that decide whether the newer list rules apply (ratcheted on update). */
export interface ListOptions {
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

/**
 * The extensions of one node: preserve-unknown-fields is true or unset, map-type (atomic|granular) on objects,
 * list-type (atomic|set|map) on arrays, set items atomic, map lists keyed by required or defaulted scalar item
 * properties.
 */
export function validateExtensions(schema: JSONSchema, fldPath: string, opts: ListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = schema.type ?? '';
  const listType = schema['x-kubernetes-list-type'];
  const mapType = schema['x-kubernetes-map-type'];
  const mapKeys = schema['x-kubernetes-list-map-keys'] ?? [];
  const items = itemsSchema(schema);
  if (schema['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(child(fldPath, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  if (has(mapType) && type !== 'object') {
    const msg = 'must be object if x-kubernetes-map-type is specified';
    errs.push(type === '' ? required(child(fldPath, 'type'), msg) : invalid(child(fldPath, 'type'), type, msg));
  }
  if (has(mapType) && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(child(fldPath, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (has(listType) && type !== 'array') {
    const msg = 'must be array if x-kubernetes-list-type is specified';
    errs.push(type === '' ? required(child(fldPath, 'type'), msg) : invalid(child(fldPath, 'type'), type, msg));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const msg = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemsPath = child(fldPath, 'items');
    if (items.type === 'array' && has(items['x-kubernetes-list-type']) && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(invalid(child(itemsPath, 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], msg));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // kube reports the items' list type here (nil for an object), not its map type
      errs.push(invalid(child(itemsPath, 'x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, msg));
    }
  }
  if (has(listType) && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(child(fldPath, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    const msg = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (!has(listType)) errs.push(required(child(fldPath, 'x-kubernetes-list-type'), msg));
    else if (listType !== 'map') errs.push(invalid(child(fldPath, 'x-kubernetes-list-type'), listType, msg));
  }
  if (listType === 'map') {
    const itemsPath = child(fldPath, 'items');
    if (mapKeys.length === 0) {
      errs.push(required(child(fldPath, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    }
    if (!has(schema.items)) errs.push(required(itemsPath, 'must have a schema if x-kubernetes-list-type is map'));
    if (has(schema.items) && !items) errs.push(invalid(itemsPath, schema.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') {
      errs.push(invalid(child(itemsPath, 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const prop = isObject(items.properties) ? items.properties[k] : undefined;
        if (prop) {
          if (prop.type === 'array' || prop.type === 'object') {
            // kube shows the items' type as the value
            errs.push(invalid(child(key(child(itemsPath, 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalid(child(fldPath, 'x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalid(child(fldPath, 'x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSet(schema, fldPath));
  return errs;
}

/**
 * validateMapListKeysMapSet: items of set and map lists are not nullable; map keys are required or defaulted, and
 * not nullable.
 */
export function mapListKeysMapSet(schema: JSONSchema, fldPath: string): FieldError[] {
  const items = itemsSchema(schema);
  const listType = schema['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  const itemsPath = child(fldPath, 'items');
  if (items.nullable) errs.push(forbidden(child(itemsPath, 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const requiredKeys = new Set(items.required ?? []);
    for (const k of schema['x-kubernetes-list-map-keys'] ?? []) {
      const prop = isObject(items.properties) ? items.properties[k] : undefined;
      if (!prop) continue;
      const propPath = key(child(itemsPath, 'properties'), k);
      if (!requiredKeys.has(k) && !has(prop.default)) {
        errs.push(required(child(propPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable) errs.push(forbidden(child(propPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

