import { describe, expect, it } from 'vitest';
import type { FieldError } from '@kapi/apimachinery';
import { validateCustomResourceDefinition as validate } from '../index.js';
import { errorText, widgetCRD } from '../testutil.js';
import type { CRDValidationOptions, JSONSchema, RuleContext } from '../types.js';

const P = 'spec.validation.openAPIV3Schema';
const S = `${P}.properties[spec]`;
const texts = (schema: JSONSchema, options?: CRDValidationOptions): string[] => validate(widgetCRD(schema), options).map(errorText);
const withSpec = (spec: JSONSchema): JSONSchema => ({ type: 'object', properties: { spec } });
const listOf = (list: JSONSchema): JSONSchema => withSpec({ type: 'object', properties: { list: { type: 'array', ...list } } });
const L = `${S}.properties[list]`;

describe('OpenAPI schema rules', () => {
  it('$ref is not supported', () => {
    expect(texts(withSpec({ type: 'object', $ref: '#/definitions/x' }))).toEqual([`${S}.$ref: Forbidden: $ref is not supported`]);
  });

  it('types are OpenAPI v3 types', () => {
    expect(texts(withSpec({ type: 'date' }))).toEqual([
      `${S}.type: Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    ]);
  });

  it('null is not a type', () => {
    expect(texts(withSpec({ type: 'null' }))).toEqual([
      `${S}.type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${S}.type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ]);
  });

  it('uniqueItems cannot be true', () => {
    expect(texts(listOf({ items: { type: 'string' }, uniqueItems: true }))).toEqual([
      `${L}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ]);
  });

  it('additionalProperties and properties exclude each other', () => {
    expect(texts(withSpec({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }))).toEqual([
      `${S}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ]);
  });

  it('the root is not nullable', () => {
    expect(texts({ type: 'object', nullable: true })).toEqual([`${P}.nullable: Forbidden: nullable cannot be true at the root`]);
  });

  it('defaults are not set in top-level metadata', () => {
    expect(texts({ type: 'object', properties: { metadata: { type: 'object', default: { name: 'x' } } } })).toEqual([
      `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });

  it('x-kubernetes-preserve-unknown-fields is true or unset', () => {
    expect(texts(withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }))).toEqual([
      `${S}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ]);
  });

  it('x-kubernetes-map-type is atomic or granular, on objects', () => {
    expect(texts(withSpec({ type: 'string', 'x-kubernetes-map-type': 'sparse' }))).toEqual([
      `${S}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
      `${S}.x-kubernetes-map-type: Unsupported value: "sparse": supported values: "atomic", "granular"`,
    ]);
  });

  it('x-kubernetes-list-type is atomic, set or map, on arrays', () => {
    expect(texts(withSpec({ type: 'object', 'x-kubernetes-list-type': 'set' }))).toEqual([
      `${S}.type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
    ]);
    expect(texts(listOf({ items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' }))).toEqual([
      `${L}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ]);
  });

  it('items of a set are atomic', () => {
    expect(texts(listOf({ 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } }))).toEqual([
      `${L}.items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
  });

  it('a map list names its keys', () => {
    expect(texts(listOf({ 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { name: { type: 'string' } } } }))).toEqual([
      `${L}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ]);
  });

  it('map keys are item properties, scalar, required or defaulted', () => {
    const items = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' }, tags: { type: 'object' } } };
    expect(texts(listOf({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port', 'proto'], items }))).toEqual([
      `${L}.x-kubernetes-list-map-keys: Invalid value: ["name","port","proto"]: entries must all be names of item properties`,
      `${L}.items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
    expect(texts(listOf({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'tags'], items: { ...items, required: ['name', 'tags'] } }))).toEqual([
      `${L}.items.properties[tags].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
    ]);
  });

  it('map list items are objects', () => {
    expect(texts(listOf({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'string' } }))).toEqual([
      `${L}.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
    ]);
  });

  it('x-kubernetes-list-map-keys needs x-kubernetes-list-type map', () => {
    expect(texts(listOf({ 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } }))).toEqual([
      `${L}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ]);
  });

  it('set and map items are not nullable', () => {
    expect(texts(listOf({ 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } }))).toEqual([
      `${L}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`,
    ]);
  });

  it('x-kubernetes-embedded-resource is not used inside resource meta', () => {
    expect(texts({ type: 'object', properties: { kind: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } })).toContain(
      `${P}.properties[kind].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
    );
  });

  it('status subresource: only some fields at the root, and type object', () => {
    const crd = widgetCRD({ type: 'object', 'x-kubernetes-map-type': 'granular', properties: { status: { type: 'object' } } });
    crd.spec.versions[0].subresources = { status: {} };
    const errs = validate(crd);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({
      type: 'FieldValueInvalid',
      field: P,
      message:
        'only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
    });
  });
});

describe('x-kubernetes-validations', () => {
  const rules = (...r: object[]): JSONSchema => withSpec({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': r as any });
  const V = `${S}.x-kubernetes-validations`;

  it('a rule is required', () => {
    expect(texts(rules({ rule: '  ' }))).toEqual([`${V}[0].rule: Required value: rule is not specified`]);
  });

  it('a message is non-empty and on one line', () => {
    expect(texts(rules({ rule: 'true', message: ' ' }, { rule: 'true', message: 'a\nb' }))).toEqual([
      `${V}[0].message: Invalid value: " ": message must be non-empty if specified`,
      `${V}[1].message: Invalid value: "a\\nb": message must not contain line breaks`,
    ]);
  });

  it('a rule on several lines needs a message', () => {
    expect(texts(rules({ rule: 'true &&\ntrue' }))).toEqual([`${V}[0].message: Required value: message must be specified if rule contains line breaks`]);
  });

  it('messageExpression is non-empty if set', () => {
    expect(texts(rules({ rule: 'true', messageExpression: ' ' }))).toEqual([`${V}[0].messageExpression: Required value: messageExpression must be non-empty if specified`]);
  });

  it('reason is a supported field error type', () => {
    expect(texts(rules({ rule: 'true', reason: 'FieldValueTooLong' }))).toEqual([
      `${V}[0].reason: Unsupported value: "FieldValueTooLong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]);
  });

  it('fieldPath names a field of the schema', () => {
    expect(texts(rules({ rule: 'true', fieldPath: '.a' }, { rule: 'true', fieldPath: '.b' }, { rule: 'true', fieldPath: " .a" }))).toEqual([
      `${V}[1].fieldPath: Invalid value: ".b": fieldPath must be a valid path`,
      `${V}[2].fieldPath: Invalid value: " .a": fieldPath must be a valid path`,
    ]);
  });

  it('rules go to the CEL compiler only when the schema is sound, with their correlation context', () => {
    const calls: [string, RuleContext][] = [];
    const compileRules = (_: JSONSchema, path: string, ctx: RuleContext): FieldError[] => {
      calls.push([path, ctx]);
      return [{ type: 'FieldValueInvalid', field: `${path}.x-kubernetes-validations[0].rule`, badValue: 'x', message: 'compilation failed' }];
    };
    const schema = withSpec({
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.a == oldSelf.a' }],
      properties: { list: { type: 'array', items: { type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] } } },
    });
    expect(texts(schema, { compileRules })).toEqual([
      `${S}.properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "x": compilation failed`,
      `${S}.x-kubernetes-validations[0].rule: Invalid value: "x": compilation failed`,
    ]);
    expect(calls).toEqual([
      [`${S}.properties[list].items`, { uncorrelatablePath: `${S}.properties[list]`, isRoot: false }],
      [S, { uncorrelatablePath: undefined, isRoot: false }],
    ]);
    calls.length = 0;
    const broken = structuredClone(schema) as any;
    broken.properties.spec.properties.list.items.type = undefined;
    texts(broken, { compileRules });
    expect(calls).toEqual([]);
  });
});
