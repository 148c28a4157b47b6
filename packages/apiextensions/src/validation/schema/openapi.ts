// kube's ValidateCustomResourceDefinitionOpenAPISchema and its OpenAPI v3 standard validator: the rules every node of
// a CRD schema follows (unsupported keywords, defaults where pruning could not tell), the walk that applies the
// extension and rule checks to every node, and the hook to the CEL compiler.
import type { FieldError } from '@kapi/apimachinery';
import { child, forbidden, index, key, notSupported } from '../field.js';
import { has, isObject } from '../json.js';
import type { CRDValidationOptions, JSONSchema } from '../types.js';
import { validateExtensions, type ListOptions } from './extensions.js';
import { validateRuleShapes } from './rules.js';

/** The OpenAPI v3 types, sorted as kube lists them. */
export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** The options that ratchet on update (kube's validationOptions). */
export interface SchemaOptions extends ListOptions {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  requireValidPropertyType: boolean;
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

/** What the walk over a schema needs: the options, whether CEL may run, and the hooks. */
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

  r.schema.push(...validateExtensions(schema, fldPath, ctx.opts));
  r.schema.push(...validateRuleShapes(schema, fldPath));
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
