// kube's ValidateCustomResourceDefinitionOpenAPISchema and its OpenAPI v3 standard validator: the rules every node of
// a CRD schema follows (unsupported keywords, defaults where pruning could not tell, list and map types, the shape
// of x-kubernetes-validations rules), and the hook to the CEL compiler.
import type { FieldError } from '@kapi/apimachinery';
import { child, forbidden, index, invalid, key, notSupported, required } from '../field.js';
import { has, isObject } from '../json.js';
import type { CRDValidationOptions, JSONSchema } from '../types.js';
import { validFieldPath } from './field-path.js';
import { itemsSchema, newStructuralError } from './nodes.js';

/** The OpenAPI v3 types, sorted as kube lists them. */
export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** The options that ratchet on update (kube's validationOptions). */
export interface SchemaOptions {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

// kube's specStandardValidatorV3 state, cloned per subtree.
interface Standard {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  uncorrelatablePath?: string;
}

/** Schema errors (shown first) and CEL errors of a subtree, as kube keeps them apart. */
interface Result {
  schema: FieldError[];
  cel: FieldError[];
}

export interface OpenAPIContext {
  opts: SchemaOptions;
  /** Whether CEL rules may be compiled (the schema is structural and its defaults valid). */
  celEnabled: boolean;
  hooks: CRDValidationOptions;
}

/** Validates a CRD version's openAPIV3Schema, answering schema errors then CEL errors. */
export function validateOpenAPISchema(schema: JSONSchema, fldPath: string, ctx: OpenAPIContext): FieldError[] {
  const ssv: Standard = {
    allowDefaults: ctx.opts.allowDefaults,
    disallowDefaultsReason: ctx.opts.disallowDefaultsReason,
    insideResourceMeta: false,
    requireValidPropertyType: ctx.opts.requireValidPropertyType,
  };
  const r = walk(schema, fldPath, ssv, true, ctx);
  return [...r.schema, ...r.cel];
}

function walk(schema: JSONSchema | undefined, fldPath: string, ssv: Standard, isRoot: boolean, ctx: OpenAPIContext): Result {
  const r: Result = { schema: [], cel: [] };
  if (!isObject(schema)) return r;
  const add = (sub: Result): void => {
    r.schema.push(...sub.schema);
    r.cel.push(...sub.cel);
  };
  r.schema.push(...standard(schema, fldPath, ssv));

  if (schema.uniqueItems) {
    r.schema.push(forbidden(child(fldPath, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }
  const props = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  if (has(schema.additionalProperties)) {
    const ap = schema.additionalProperties;
    if (props.length !== 0 && (ap === false || isObject(ap))) {
      r.schema.push(forbidden(child(fldPath, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ssv.insideResourceMeta ? withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata') : ssv;
    if (isObject(ap)) add(walk(ap as JSONSchema, child(fldPath, 'additionalProperties'), sub, false, ctx));
  }
  for (const [property, propSchema] of props) {
    let sub = ssv;
    if (!mapIsCorrelatable(schema['x-kubernetes-map-type'])) sub = withForbidOldSelf(sub, fldPath);
    if ((isRoot || schema['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(property)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${property}`);
    }
    add(walk(propSchema, key(child(fldPath, 'properties'), property), sub, false, ctx));
  }
  add(walk(schema.not, child(fldPath, 'not'), ssv, false, noCEL(ctx)));
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const) {
    (schema[junctor] ?? []).forEach((s, i) => add(walk(s, index(child(fldPath, junctor), i), ssv, false, noCEL(ctx))));
  }
  for (const [name, s] of Object.entries(schema.definitions ?? {})) add(walk(s, key(child(fldPath, 'definitions'), name), ssv, false, noCEL(ctx)));
  if (has(schema.items)) {
    const listType = schema['x-kubernetes-list-type'];
    const sub = listType !== 'map' ? withForbidOldSelf(ssv, fldPath) : ssv;
    if (Array.isArray(schema.items)) schema.items.forEach((s, i) => add(walk(s, index(child(fldPath, 'items'), i), sub, false, ctx)));
    else add(walk(schema.items, child(fldPath, 'items'), sub, false, ctx));
  }
  for (const [name, dep] of Object.entries(schema.dependencies ?? {})) {
    if (isObject(dep)) add(walk(dep as JSONSchema, key(child(fldPath, 'dependencies'), name), ssv, false, noCEL(ctx)));
  }

  r.schema.push(...extensions(schema, fldPath, ctx.opts));
  r.schema.push(...ruleShapes(schema, fldPath));
  // Only a subtree without schema errors has its rules compiled: CEL errors on a broken schema mislead.
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length > 0 && r.schema.length === 0 && ctx.celEnabled && ctx.hooks.compileRules) {
    r.cel.push(...ctx.hooks.compileRules(schema, fldPath, { uncorrelatablePath: ssv.uncorrelatablePath, isRoot }));
  }
  return r;
}

const noCEL = (ctx: OpenAPIContext): OpenAPIContext => (ctx.celEnabled ? { ...ctx, celEnabled: false } : ctx);

const withForbiddenDefaults = (ssv: Standard, reason: string): Standard => ({ ...ssv, allowDefaults: false, disallowDefaultsReason: reason });

const withForbidOldSelf = (ssv: Standard, path: string): Standard => (ssv.uncorrelatablePath !== undefined ? ssv : { ...ssv, uncorrelatablePath: path });

/** cel.MapIsCorrelatable: granular (the default) and atomic maps correlate old and new values. */
const mapIsCorrelatable = (mapType: string | undefined): boolean => !has(mapType) || mapType === 'granular' || mapType === 'atomic';

// specStandardValidatorV3.validate
function standard(schema: JSONSchema, fldPath: string, ssv: Standard): FieldError[] {
  const errs: FieldError[] = [];
  const type = schema.type ?? '';
  if (ssv.requireValidPropertyType && type !== '' && !OPENAPI_V3_TYPES.includes(type)) {
    errs.push(notSupported(child(fldPath, 'type'), type, OPENAPI_V3_TYPES));
  }
  if (has(schema.default) && !ssv.allowDefaults) {
    errs.push(forbidden(child(fldPath, 'default'), `must not be set${ssv.disallowDefaultsReason ? ` ${ssv.disallowDefaultsReason}` : ''}`));
  }
  if (schema.id) errs.push(forbidden(child(fldPath, 'id'), 'id is not supported'));
  if (has(schema.additionalItems)) errs.push(forbidden(child(fldPath, 'additionalItems'), 'additionalItems is not supported'));
  if (isObject(schema.patternProperties) && Object.keys(schema.patternProperties).length !== 0) {
    errs.push(forbidden(child(fldPath, 'patternProperties'), 'patternProperties is not supported'));
  }
  if (isObject(schema.definitions) && Object.keys(schema.definitions).length !== 0) {
    errs.push(forbidden(child(fldPath, 'definitions'), 'definitions is not supported'));
  }
  if (has(schema.dependencies)) errs.push(forbidden(child(fldPath, 'dependencies'), 'dependencies is not supported'));
  if (has(schema.$ref)) errs.push(forbidden(child(fldPath, '$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(child(fldPath, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(schema.items) && schema.items.length !== 0) {
    errs.push(forbidden(child(fldPath, 'items'), 'items must be a schema object and not an array'));
  }
  if (ssv.insideResourceMeta && schema['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(child(fldPath, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

// The vendor extensions: preserve-unknown-fields, map-type, list-type, list-map-keys.
function extensions(schema: JSONSchema, fldPath: string, opts: SchemaOptions): FieldError[] {
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

const NEWLINES = /[\n\r]+/;

// The shape of each x-kubernetes-validations rule (what kube checks before compiling it).
function ruleShapes(schema: JSONSchema, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  (schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const p = index(child(fldPath, 'x-kubernetes-validations'), i);
    const ruleText = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (ruleText.length === 0) errs.push(required(child(p, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0) errs.push(invalid(child(p, 'message'), message, 'message must be non-empty if specified'));
    else if (NEWLINES.test(trimmedMsg)) errs.push(invalid(child(p, 'message'), message, 'message must not contain line breaks'));
    else if (NEWLINES.test(ruleText) && trimmedMsg.length === 0) {
      errs.push(required(child(p, 'message'), 'message must be specified if rule contains line breaks'));
    }
    if ((rule.messageExpression ?? '').length > 0 && rule.messageExpression!.trim().length === 0) {
      errs.push(required(child(p, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (has(rule.reason) && !VALIDATION_REASONS.includes(rule.reason)) {
      errs.push(notSupported(child(p, 'reason'), rule.reason, VALIDATION_REASONS));
    }
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim().length === 0) {
      errs.push(invalid(child(p, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    }
    if (NEWLINES.test(fieldPath)) errs.push(invalid(child(p, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
    if (fieldPath.length > 0 && !pathValid(schema, fieldPath)) {
      errs.push(invalid(child(p, 'fieldPath'), fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errs;
}

// pathValid: a rule's fieldPath names a field of the node's structural schema (true when that cannot be built).
function pathValid(schema: JSONSchema, path: string): boolean {
  if (newStructuralError(schema)) return true;
  return typeof validFieldPath(path, schema, true) !== 'string';
}
