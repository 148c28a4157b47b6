// kube's ValidateDefaults (pkg/apiserver/schema/defaulting): every default is pruned (no unknown fields), its
// embedded resources have valid TypeMeta and ObjectMeta, a default inside apiVersion, kind or metadata gives a valid
// object once placed in its resource, and each default validates against its schema (the validateDefault hook).
import { aggregateMessages, formatFieldError, type FieldError } from '@kapi/apimachinery';
import { isDNS1035Label } from '../dns.js';
import { child, invalid, key, required } from '../field.js';
import { has, isObject, jsonClone, jsonEqual } from '../json.js';
import type { CRDValidationOptions, JSONSchema } from '../types.js';
import { additionalPropertiesSchema, isEmbeddedResource, itemsSchema, properties } from './nodes.js';
import { objectMetaDecodeError, validateEmbeddedObjectMeta } from './object-meta.js';
import { prune } from './prune.js';

const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

/** A step from a resource root down to a schema node: a property name, or into array items. */
type Step = { child: string } | 'index';

interface Walk {
  requirePruned: boolean;
  hooks: CRDValidationOptions;
}

/** The defaults of a structural schema (already validated as structural); the root is a resource root. */
export function validateDefaults(fldPath: string, root: JSONSchema, requirePrunedDefaults: boolean, hooks: CRDValidationOptions): FieldError[] {
  return walk(fldPath, root, root, [], true, false, { requirePruned: requirePrunedDefaults, hooks });
}

function walk(pth: string, s: JSONSchema, rootSchema: JSONSchema, steps: Step[], embedded: boolean, insideMeta: boolean, w: Walk): FieldError[] {
  const errs: FieldError[] = [];
  if (embedded) {
    insideMeta = false;
    rootSchema = s;
    steps = [];
  }
  if (has(s.default)) {
    const path = child(pth, 'default');
    errs.push(...(insideMeta ? metaDefault(path, s, rootSchema, steps, w) : plainDefault(path, s, embedded, w)));
  }
  // additionalProperties are not followed: defaults are forbidden there
  const items = itemsSchema(s);
  if (items) errs.push(...walk(child(pth, 'items'), items, rootSchema, [...steps, 'index'], isEmbeddedResource(items), insideMeta, w));
  for (const [k, sub] of properties(s)) {
    const subInsideMeta = insideMeta || (embedded && META_FIELDS.has(k));
    errs.push(...walk(key(child(pth, 'properties'), k), sub, rootSchema, [...steps, { child: k }], isEmbeddedResource(sub), subInsideMeta, w));
  }
  return errs;
}

// A default inside TypeMeta or ObjectMeta: placed in an otherwise empty resource, that resource must be valid.
function metaDefault(path: string, s: JSONSchema, rootSchema: JSONSchema, steps: Step[], w: Walk): FieldError[] {
  let obj: unknown = jsonClone(s.default);
  for (const step of [...steps].reverse()) obj = step === 'index' ? [obj] : { [step.child]: obj };
  if (!isObject(obj)) return [];
  obj.kind ??= 'Validation';
  obj.apiVersion ??= 'validation/v1';
  const coerceErr = coerce('', obj, rootSchema, true);
  if (coerceErr) return [invalid(path, s.default, `must result in valid metadata: ${formatFieldError(coerceErr)}`)];
  const metaErrs = embeddedResources('', obj, rootSchema, true);
  if (metaErrs.length > 0) return [invalid(path, s.default, `must result in valid metadata: ${aggregateMessages(metaErrs.map(formatFieldError))}`)];
  return w.hooks.validateDefault?.(s.default, s, path) ?? [];
}

// Any other default: pruned, with valid embedded resources, valid against its schema.
function plainDefault(path: string, s: JSONSchema, embedded: boolean, w: Walk): FieldError[] {
  const errs: FieldError[] = [];
  if (w.requirePruned) {
    const pruned = jsonClone(s.default);
    prune(pruned, s, embedded);
    if (!jsonEqual(pruned, s.default)) errs.push(invalid(path, s.default, 'must not have unknown fields'));
  }
  const coerceErr = coerce(path, s.default, s, embedded);
  if (coerceErr) return [...errs, coerceErr];
  const metaErrs = embeddedResources(path, s.default, s, embedded);
  if (metaErrs.length > 0) return [...errs, ...metaErrs];
  return [...errs, ...(w.hooks.validateDefault?.(s.default, s, path) ?? [])];
}

const childSchema = (s: JSONSchema, k: string): [JSONSchema | undefined, boolean] => {
  const props = Object.fromEntries(properties(s));
  if (props[k]) return [props[k], true];
  return [has(s.additionalProperties) ? additionalPropertiesSchema(s) : undefined, false];
};

// objectmeta.Coerce without dropping: TypeMeta of embedded resources are strings, their metadata decodes.
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
  for (const [k, v] of Object.entries(x)) {
    if (embedded) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') return invalid(child(pth, k), v, 'must be a string');
      if (k === 'metadata') {
        const err = objectMetaDecodeError(v);
        if (err) return invalid(child(pth, 'metadata'), v, err);
      }
    }
    const [sub, named] = childSchema(s, k);
    const e = coerce(named ? child(pth, k) : key(pth, k), v, sub, sub !== undefined && isEmbeddedResource(sub));
    if (e) return e;
  }
  return undefined;
}

// objectmeta.Validate: embedded resources name a valid apiVersion and kind, and have valid ObjectMeta.
function embeddedResources(pth: string, x: unknown, s: JSONSchema | undefined, embedded: boolean): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => errs.push(...embeddedResources(`${pth}[${i}]`, v, items, items !== undefined && isEmbeddedResource(items))));
    return errs;
  }
  if (!isObject(x)) return errs;
  if (embedded) errs.push(...typeAndObjectMeta(pth, x));
  for (const [k, v] of Object.entries(x)) {
    const [sub, named] = childSchema(s, k);
    if (sub || named) errs.push(...embeddedResources(named ? child(pth, k) : key(pth, k), v, sub, sub !== undefined && isEmbeddedResource(sub)));
  }
  return errs;
}

function typeAndObjectMeta(pth: string, x: Record<string, any>): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(required(child(pth, 'apiVersion'), 'must not be empty'));
  if (!('kind' in x)) errs.push(required(child(pth, 'kind'), 'must not be empty'));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(child(pth, k), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(child(pth, k), v, 'must not be empty'));
      else if (v !== '/' && v.split('/').length > 2) errs.push(invalid(child(pth, k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(child(pth, k), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(child(pth, k), v, 'must not be empty'));
      else {
        const problems = isDNS1035Label(v.toLowerCase());
        if (problems.length > 0) errs.push(invalid(child(pth, k), v, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
      }
    } else if (k === 'metadata') {
      const err = objectMetaDecodeError(v);
      if (err) errs.push(invalid(child(pth, k), v, err));
      else if (isObject(v)) errs.push(...validateEmbeddedObjectMeta(v, child(pth, k)));
    }
  }
  return errs;
}
