import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate } from '../index.js';
import { errorText, widgetCRD } from '../testutil.js';
import type { JSONSchema } from '../types.js';

const P = 'spec.validation.openAPIV3Schema';
const texts = (schema: JSONSchema): string[] => validate(widgetCRD(schema)).map(errorText);
const withSpec = (spec: JSONSchema): JSONSchema => ({ type: 'object', properties: { spec } });

describe('structural schema', () => {
  it('the root specifies a type', () => {
    expect(texts({ properties: { spec: { type: 'object' } } })).toEqual([`${P}.type: Required value: must not be empty at the root`]);
  });

  it('the root is an object', () => {
    expect(texts({ type: 'array', items: { type: 'string' } })).toEqual([`${P}.type: Invalid value: "array": must be object at the root`]);
  });

  it('every field specifies a type', () => {
    expect(texts(withSpec({ type: 'object', properties: { size: { minimum: 1 } } }))).toEqual([
      `${P}.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`,
    ]);
  });

  it('every array item specifies a type', () => {
    expect(texts(withSpec({ type: 'array', items: { minLength: 1 } }))).toEqual([
      `${P}.properties[spec].items.type: Required value: must not be empty for specified array items`,
    ]);
  });

  it('arrays specify items', () => {
    expect(texts(withSpec({ type: 'array' }))).toEqual([`${P}.properties[spec].items: Required value: must be specified`]);
  });

  it('no type is needed under x-kubernetes-preserve-unknown-fields or x-kubernetes-int-or-string', () => {
    expect(texts(withSpec({ 'x-kubernetes-preserve-unknown-fields': true }))).toEqual([]);
    expect(texts(withSpec({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }))).toEqual([]);
    expect(
      texts(withSpec({ 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+%?$' }] })),
    ).toEqual([]);
  });

  it('x-kubernetes-int-or-string excludes preserve-unknown-fields and embedded-resource', () => {
    expect(texts(withSpec({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }))).toEqual([
      `${P}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]);
  });

  it('types under anyOf/allOf/oneOf/not are forbidden, except the int-or-string pattern', () => {
    expect(texts(withSpec({ type: 'object', anyOf: [{ type: 'object' }, { required: ['a'] }] }))).toEqual([
      `${P}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
    ]);
  });

  it('value validations under junctors may not carry structure or extensions', () => {
    expect(
      texts(
        withSpec({
          type: 'object',
          properties: { a: { type: 'string' } },
          oneOf: [{ properties: { a: { description: 'x', 'x-kubernetes-validations': [{ rule: 'true' }] } }, additionalProperties: true }],
        }),
      ),
    ).toEqual([
      `${P}.properties[spec].oneOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
      `${P}.properties[spec].oneOf[0].properties[a].description: Forbidden: must be empty to be structural`,
      `${P}.properties[spec].oneOf[0].properties[a].x-kubernetes-validations: Forbidden: must be empty to be structural`,
    ]);
  });

  it('metadata is not specified in a nested context', () => {
    expect(texts({ type: 'object', properties: { spec: { type: 'object' } }, allOf: [{ properties: { metadata: { required: ['name'] } } }] })).toEqual([
      `${P}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.properties[metadata]: Required value: because it is defined in ${P}.allOf[0].properties[metadata]`,
    ]);
  });

  it('properties named under the root junctors exist structurally', () => {
    expect(texts({ type: 'object', properties: { spec: { type: 'object' } }, anyOf: [{ required: ['spec'] }, { properties: { status: {} } }] })).toEqual([
      `${P}.properties[status]: Required value: because it is defined in ${P}.anyOf[1].properties[status]`,
    ]);
  });

  it('metadata at the root restricts name and generateName only', () => {
    expect(texts({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } } })).toEqual([]);
    expect(texts({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } })).toEqual([
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
  });

  it('metadata, apiVersion and kind at the root have their types', () => {
    expect(texts({ type: 'object', properties: { metadata: { type: 'string' }, kind: { type: 'integer' } } })).toEqual([
      `${P}.properties[kind].type: Invalid value: "integer": must be string`,
      `${P}.properties[metadata].type: Invalid value: "string": must be object`,
    ]);
  });

  it('additionalProperties is not used at the root', () => {
    expect(texts({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([
      `${P}.additionalProperties: Forbidden: must not be used at the root`,
    ]);
  });

  it('x-kubernetes-embedded-resource needs type object and properties or preserve-unknown-fields', () => {
    expect(texts(withSpec({ 'x-kubernetes-embedded-resource': true }))).toEqual([
      `${P}.properties[spec].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${P}.properties[spec].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]);
    expect(texts(withSpec({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }))).toEqual([]);
  });

  it('patterns are valid regular expressions', () => {
    expect(texts(withSpec({ type: 'string', pattern: '^(a|b$' }))).toEqual([
      `${P}.properties[spec].pattern: Invalid value: "^(a|b$": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`^(a|b$\``,
    ]);
  });

  it('a schema kube cannot convert is reported whole when nothing else is wrong', () => {
    expect(texts({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' })).toEqual([
      `${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`,
    ]);
  });
});
