// kube's ValidateDefaults (pkg/apiserver/schema/defaulting): every default is pruned (no unknown fields), its
// embedded resources have a valid apiVersion and kind, and it validates against its schema (the hook).
import type { FieldError } from '@kapi/apimachinery';
import { isDNS1035Label } from '../dns.js';
import { child, invalid, key, required } from '../field.js';
import { has, isObject, jsonClone, jsonEqual } from '../json.js';
import type { CRDValidationOptions, JSONSchema } from '../types.js';
import { additionalPropertiesSchema, isEmbeddedResource, itemsSchema, properties } from './nodes.js';
import { prune } from './prune.js';

const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

/**
 * The defaults of a structural schema (already validated as structural). The root is a resource root: defaults in its
 * apiVersion, kind and metadata (forbidden elsewhere) are not checked for pruning here.
 */
export function validateDefaults(fldPath: string, root: JSONSchema, requirePrunedDefaults: boolean, hooks: CRDValidationOptions): FieldError[] {
  return walk(fldPath, root, true, false, requirePrunedDefaults, hooks);
}

function walk(
  pth: string,
  s: JSONSchema | undefined,
  embedded: boolean,
  insideMeta: boolean,
  requirePruned: boolean,
  hooks: CRDValidationOptions,
): FieldError[] {
  if (!isObject(s)) return [];
  const errs: FieldError[] = [];
  if (embedded) insideMeta = false;
  if (has(s.default)) {
    const path = child(pth, 'default');
    if (insideMeta) {
      // TODO: kube also checks that a default inside metadata results in valid ObjectMeta.
      errs.push(...(hooks.validateDefault?.(s.default, s, path) ?? []));
    } else {
      if (requirePruned) {
        const pruned = jsonClone(s.default);
        prune(pruned, s, embedded);
        if (!jsonEqual(pruned, s.default)) errs.push(invalid(path, s.default, 'must not have unknown fields'));
      }
      const coerceErr = coerce(path, s.default, s, embedded);
      if (coerceErr) errs.push(coerceErr);
      else {
        const metaErrs = embeddedResources(path, s.default, s, embedded);
        if (metaErrs.length > 0) errs.push(...metaErrs);
        else errs.push(...(hooks.validateDefault?.(s.default, s, path) ?? []));
      }
    }
  }
  // additionalProperties are not followed: defaults are forbidden there
  const items = itemsSchema(s);
  if (items) errs.push(...walk(child(pth, 'items'), items, isEmbeddedResource(items), insideMeta, requirePruned, hooks));
  for (const [k, sub] of properties(s)) {
    const subInsideMeta = insideMeta || (embedded && META_FIELDS.has(k));
    errs.push(...walk(key(child(pth, 'properties'), k), sub, isEmbeddedResource(sub), subInsideMeta, requirePruned, hooks));
  }
  return errs;
}

// objectmeta.Coerce without dropping: apiVersion and kind of embedded resources are strings, metadata an object.
function coerce(pth: string, x: unknown, s: JSONSchema | undefined, embedded: boolean): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      const e = coerce(`${pth}[${i}]`, x[i], items, items !== undefined && isEmbeddedResource(items));
      if (e) return e;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  const props = Object.fromEntries(properties(s));
  for (const [k, v] of Object.entries(x)) {
    if (embedded) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') return invalid(child(pth, k), v, 'must be a string');
      if (k === 'metadata' && !isObject(v)) {
        return invalid(child(pth, 'metadata'), v, `json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta`);
      }
    }
    const sub = props[k] ?? (has(s.additionalProperties) ? additionalPropertiesSchema(s) : undefined);
    const path = props[k] ? child(pth, k) : key(pth, k);
    const e = coerce(path, v, sub, sub !== undefined && isEmbeddedResource(sub));
    if (e) return e;
  }
  return undefined;
}

const jsonKind = (v: unknown): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';

// objectmeta.Validate: embedded resources name their apiVersion and kind.
function embeddedResources(pth: string, x: unknown, s: JSONSchema | undefined, embedded: boolean): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => errs.push(...embeddedResources(`${pth}[${i}]`, v, items, items !== undefined && isEmbeddedResource(items))));
    return errs;
  }
  if (!isObject(x)) return errs;
  if (embedded) {
    if (!('apiVersion' in x)) errs.push(required(child(pth, 'apiVersion'), 'must not be empty'));
    if (!('kind' in x)) errs.push(required(child(pth, 'kind'), 'must not be empty'));
    const apiVersion = x.apiVersion;
    if ('apiVersion' in x) {
      if (typeof apiVersion !== 'string') errs.push(invalid(child(pth, 'apiVersion'), apiVersion, 'must be a string'));
      else if (apiVersion.length === 0) errs.push(invalid(child(pth, 'apiVersion'), apiVersion, 'must not be empty'));
      else if (apiVersion !== '/' && apiVersion.split('/').length > 2) {
        errs.push(invalid(child(pth, 'apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
      }
    }
    const kind = x.kind;
    if ('kind' in x) {
      if (typeof kind !== 'string') errs.push(invalid(child(pth, 'kind'), kind, 'must be a string'));
      else if (kind.length === 0) errs.push(invalid(child(pth, 'kind'), kind, 'must not be empty'));
      else {
        const problems = isDNS1035Label(kind.toLowerCase());
        if (problems.length > 0) errs.push(invalid(child(pth, 'kind'), kind, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
      }
    }
  }
  const props = Object.fromEntries(properties(s));
  for (const [k, v] of Object.entries(x)) {
    if (props[k]) errs.push(...embeddedResources(child(pth, k), v, props[k], isEmbeddedResource(props[k])));
    else if (has(s.additionalProperties)) {
      const ap = additionalPropertiesSchema(s);
      errs.push(...embeddedResources(key(pth, k), v, ap, ap !== undefined && isEmbeddedResource(ap)));
    }
  }
  return errs;
}
