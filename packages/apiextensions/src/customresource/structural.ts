import { fieldDuplicate, fieldInvalid, GoValue, isObj, type FieldError } from '@kapi/apimachinery';
import { itemsOf, mapListKey, valuesOf, type JSONSchemaProps } from '../schema.js';
import { embeddedResourceErrors } from './embedded.js';
import { goBadValue, goSyntax } from './go-value.js';

// What kube checks of a custom resource beyond its schema's keywords, at any depth: an object marked
// `x-kubernetes-embedded-resource` names its apiVersion and kind and has valid metadata (embedded.ts), and, as ValidateListSetsAndMaps
// (schema/listtype), the items of an `x-kubernetes-list-type: set` list are unique and so are the keys
// (`x-kubernetes-list-map-keys`) of a `map` list's items. Server-side apply merges such lists by those keys:
// duplicates would make an object it cannot merge.

function listErrors(node: JSONSchemaProps, list: unknown[], path: string): FieldError[] {
  const type = node['x-kubernetes-list-type'];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  if (type === 'set') {
    list.forEach((item, i) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) errs.push(fieldDuplicate(`${path}[${i}]`, goBadValue(item)));
      seen.add(key);
    });
  } else if (type === 'map') {
    const keys = node['x-kubernetes-list-map-keys'] ?? [];
    for (const [i, item] of list.entries()) {
      if (item !== null && !isObj(item)) return [fieldInvalid(`${path}[${i}]`, item, 'must be an object for an array of list-type map')];
    }
    list.forEach((item, i) => {
      if (!isObj(item)) return;
      const key = mapListKey(node, item);
      const id = JSON.stringify(keys.map((k) => key[k] ?? null));
      if (seen.has(id)) errs.push(fieldDuplicate(`${path}[${i}]`, new GoValue(goSyntax(key))));
      seen.add(id);
    });
  }
  return errs;
}

/** Which of the checks to make: embedded resources, and duplicates in lists (both by default). */
export interface StructuralChecks {
  embedded?: boolean;
  lists?: boolean;
}

/** The embedded resources' errors (apiVersion, kind, metadata), and the duplicates of every set and map list in `value`, a value of `node`. */
export function structuralErrors(node: JSONSchemaProps | undefined, value: unknown, checks: StructuralChecks = {}, path = ''): FieldError[] {
  if (!node || value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    const errs = checks.lists === false ? [] : listErrors(node, value, path);
    const items = itemsOf(node);
    if (items) value.forEach((item, i) => errs.push(...structuralErrors(items, item, checks, `${path}[${i}]`)));
    return errs;
  }
  if (!isObj(value)) return [];
  const errs: FieldError[] = [];
  // The resource itself (path '') has its apiVersion and kind checked as every object's are.
  if (path && node['x-kubernetes-embedded-resource'] && checks.embedded !== false) errs.push(...embeddedResourceErrors(value, path));
  const values = valuesOf(node);
  for (const key of Object.keys(value).sort()) {
    const child = node.properties?.[key];
    if (child) errs.push(...structuralErrors(child, value[key], checks, path ? `${path}.${key}` : key));
    else if (values) errs.push(...structuralErrors(values, value[key], checks, `${path}[${key}]`));
  }
  return errs;
}
