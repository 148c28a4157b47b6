// kube's structural schema rules (k8s.io/apiextensions-apiserver pkg/apiserver/schema: ValidateStructural, with its
// invariants and completeness checks), over the JSON schema of a CRD version.
import { formatFieldError, type FieldError } from '@kapi/apimachinery';
import { child, forbidden, index, invalid, key, required } from '../field.js';
import { has, isObject } from '../json.js';
import type { JSONSchema } from '../types.js';
import {
  additionalPropertiesSchema,
  hasAdditionalProperties,
  isEmbeddedResource,
  isIntOrString,
  itemsSchema,
  preservesUnknownFields,
  properties,
  structuralKeys,
} from './nodes.js';
import { goRegexpError } from './regexp.js';

type Level = 'root' | 'item' | 'field';

/**
 * ValidateStructural: every node specifies a type (unless x-kubernetes-int-or-string or
 * x-kubernetes-preserve-unknown-fields), value validations under allOf/anyOf/oneOf/not only restrict what the
 * structure declares, metadata at the root restricts name and generateName only, and the vendor extensions are
 * consistent. Errors are sorted by their text, as kube sorts them.
 */
export function validateStructural(fldPath: string, s: JSONSchema): FieldError[] {
  const errs = [...invariants(s, 'root', fldPath), ...valueValidationCompleteness(s, s, fldPath, fldPath)];
  const text = errs.map((e) => [formatFieldError(e), e] as const);
  text.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return text.map(([, e]) => e);
}

function invariants(s: JSONSchema | undefined, lvl: Level, fldPath: string): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  const items = itemsSchema(s);
  if (s.type === 'array' && !items) errs.push(required(child(fldPath, 'items'), 'must be specified'));
  errs.push(...invariants(items, 'item', child(fldPath, 'items')));
  for (const [k, v] of properties(s)) errs.push(...invariants(v, 'field', key(child(fldPath, 'properties'), k)));
  if (hasAdditionalProperties(s)) {
    if (lvl === 'root') errs.push(forbidden(child(fldPath, 'additionalProperties'), 'must not be used at the root'));
    errs.push(...invariants(additionalPropertiesSchema(s), 'field', child(fldPath, 'additionalProperties')));
  }

  // validateExtensions
  if (isIntOrString(s) && preservesUnknownFields(s)) {
    errs.push(invalid(child(fldPath, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (isIntOrString(s) && isEmbeddedResource(s)) {
    errs.push(invalid(child(fldPath, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }

  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), fldPath));

  const checkMetadata = lvl === 'root' || isEmbeddedResource(s);
  const type = s.type ?? '';
  if (isEmbeddedResource(s) && type !== 'object') {
    const msg = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(type === '' ? required(child(fldPath, 'type'), msg) : invalid(child(fldPath, 'type'), type, msg));
  } else if (type === '' && !isIntOrString(s) && !preservesUnknownFields(s)) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(required(child(fldPath, 'type'), `must not be empty ${where}`));
  }
  if (isEmbeddedResource(s) && hasAdditionalProperties(s)) {
    errs.push(forbidden(child(fldPath, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalid(child(fldPath, 'type'), type, 'must be object at the root'));

  const props = Object.fromEntries(properties(s));
  for (const meta of ['kind', 'apiVersion']) {
    if (props[meta] && checkMetadata && props[meta].type !== 'string') {
      errs.push(invalid(child(key(child(fldPath, 'properties'), meta), 'type'), props[meta].type ?? '', 'must be string'));
    }
  }
  if (props.metadata) errs.push(...metadataInvariants(props.metadata, checkMetadata, lvl, key(child(fldPath, 'properties'), 'metadata')));

  if (isEmbeddedResource(s) && !preservesUnknownFields(s) && properties(s).length === 0) {
    errs.push(required(child(fldPath, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

function metadataInvariants(s: JSONSchema, checkMetadata: boolean, lvl: Level, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(child(fldPath, 'type'), s.type ?? '', 'must be object'));
  if (lvl === 'root') {
    const names = properties(s).map(([k]) => k);
    const onlyNames =
      names.length === 0 ||
      (names.length === 2 && names.includes('name') && names.includes('generateName')) ||
      (names.length === 1 && (names[0] === 'name' || names[0] === 'generateName'));
    const rest = structuralKeys(s, false).filter((k) => k !== 'type' && k !== 'default' && k !== 'properties');
    if (!onlyNames || rest.length > 0) {
      errs.push(forbidden(fldPath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

/** anyOf: [{type: integer}, {type: string}] exactly, the int-or-string pattern kube exempts. */
function isIntOrStringAnyOf(anyOf: JSONSchema[] | undefined): boolean {
  if (!anyOf || anyOf.length !== 2) return false;
  const only = (n: JSONSchema, type: string): boolean =>
    isObject(n) && n.type === type && structuralKeys(n, true).every((k) => k === 'type');
  return only(anyOf[0], 'integer') && only(anyOf[1], 'string');
}

// validateValueValidation: the junctors and the pattern of a node.
function valueValidation(v: JSONSchema, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (v.anyOf ?? []).forEach((n, i) => errs.push(...nested(n, false, index(child(fldPath, 'anyOf'), i))));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nested(n, skipFirstAllOfAnyOf && i === 0, index(child(fldPath, 'allOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nested(n, false, index(child(fldPath, 'oneOf'), i))));
  if (has(v.not)) errs.push(...nested(v.not, false, child(fldPath, 'not')));
  if (v.pattern) {
    const err = goRegexpError(v.pattern);
    if (err) errs.push(invalid(child(fldPath, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
  return errs;
}

const NESTED_FORBIDDEN: [string, string][] = [
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

// validateNestedValueValidation: under a junctor only value validations may appear.
function nested(v: JSONSchema, skipAnyOf: boolean, fldPath: string): FieldError[] {
  if (!isObject(v)) return [];
  const errs = valueValidation(v, skipAnyOf, false, fldPath);
  const items = itemsSchema(v);
  if (items) errs.push(...nested(items, false, child(fldPath, 'items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) errs.push(...nested(p, false, key(child(fldPath, 'properties'), k)));
  if (v.type) errs.push(forbidden(child(fldPath, 'type'), 'must be empty to be structural'));
  const set = new Set(structuralKeys(v, true));
  if (set.has('additionalProperties')) {
    errs.push(forbidden(child(fldPath, 'additionalProperties'), 'must be undefined to be structural'));
  }
  for (const [k, msg] of NESTED_FORBIDDEN) {
    const empty = k === 'x-kubernetes-list-map-keys' || k === 'x-kubernetes-validations' ? !(v as any)[k]?.length : false;
    if (set.has(k) && !empty) errs.push(forbidden(child(fldPath, k), msg));
  }
  if (isObject(v.properties) && 'metadata' in v.properties) {
    errs.push(forbidden(key(child(fldPath, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

// validateStructuralCompleteness: properties and items named under the root's junctors must exist structurally.
function valueValidationCompleteness(v: JSONSchema, s: JSONSchema | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (has(v.not)) errs.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    (v[junctor] ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, junctor), i))));
  }
  return errs;
}

function nestedCompleteness(v: JSONSchema, s: JSONSchema | undefined, sPath: string, vPath: string): FieldError[] {
  if (!isObject(v)) return [];
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = valueValidationCompleteness(v, s, sPath, vPath);
  const items = itemsSchema(v);
  if (items) errs.push(...nestedCompleteness(items, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items')));
  const sProps = Object.fromEntries(properties(s));
  for (const [k, p] of Object.entries(v.properties ?? {})) {
    const sField = key(child(sPath, 'properties'), k);
    const vField = key(child(vPath, 'properties'), k);
    if (!sProps[k]) errs.push(required(sField, `because it is defined in ${vField}`));
    else errs.push(...nestedCompleteness(p, sProps[k], sField, vField));
  }
  return errs;
}
