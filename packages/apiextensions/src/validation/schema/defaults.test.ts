import { describe, expect, it } from 'vitest';
import type { FieldError } from '@kapi/apimachinery';
import { validateCustomResourceDefinition as validate } from '../index.js';
import { errorText, widgetCRD } from '../testutil.js';
import type { CRDValidationOptions, JSONSchema } from '../types.js';

const P = 'spec.validation.openAPIV3Schema';
const S = `${P}.properties[spec]`;
const texts = (schema: JSONSchema, options?: CRDValidationOptions): string[] => validate(widgetCRD(schema), options).map(errorText);
const withSpec = (spec: JSONSchema): JSONSchema => ({ type: 'object', properties: { spec } });

describe('defaults', () => {
  it('a default has no fields the schema prunes', () => {
    expect(texts(withSpec({ type: 'object', properties: { a: { type: 'integer' } }, default: { a: 1, b: 2 } }))).toEqual([
      `${S}.default: Invalid value: {"a":1,"b":2}: must not have unknown fields`,
    ]);
  });

  it('a default may hold fields kept by x-kubernetes-preserve-unknown-fields', () => {
    expect(texts(withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { a: 1, b: { c: 2 } } }))).toEqual([]);
  });

  it('embedded resources in a default name their apiVersion and kind', () => {
    const embedded = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
    expect(texts(withSpec({ type: 'object', properties: { template: embedded }, default: { template: { apiVersion: 'v1' } } }))).toEqual([
      `${S}.default.template.kind: Required value: must not be empty`,
    ]);
    expect(texts(withSpec({ type: 'object', properties: { template: embedded }, default: { template: { apiVersion: 'v1', kind: 3 } } }))).toEqual([
      `${S}.default.template.kind: Invalid value: 3: must be a string`,
    ]);
  });

  it("an embedded resource's metadata in a default is checked as kube checks names: every '/' and '%' named", () => {
    const embedded = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
    const metadata = { name: 'a/b%c', generateName: 'g/%' };
    expect(texts(withSpec({ type: 'object', properties: { template: embedded }, default: { template: { apiVersion: 'v1', kind: 'Pod', metadata } } }))).toEqual([
      `${S}.default.template.metadata.generateName: Invalid value: "g/%": may not contain '/'`,
      `${S}.default.template.metadata.generateName: Invalid value: "g/%": may not contain '%'`,
      `${S}.default.template.metadata.name: Invalid value: "a/b%c": may not contain '/'`,
      `${S}.default.template.metadata.name: Invalid value: "a/b%c": may not contain '%'`,
    ]);
  });

  it('defaults are not allowed inside additionalProperties of metadata', () => {
    expect(
      texts({
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              template: {
                type: 'object',
                'x-kubernetes-embedded-resource': true,
                properties: { metadata: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } },
              },
            },
          },
        },
      }),
    ).toEqual([`${S}.properties[template].properties[metadata].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`]);
  });

  it('defaults go to the validateDefault hook at their path', () => {
    const seen: [unknown, string][] = [];
    const validateDefault = (value: unknown, schema: JSONSchema, path: string): FieldError[] => {
      seen.push([value, path]);
      return schema.type === 'integer' && typeof value !== 'number'
        ? [{ type: 'FieldValueInvalid', field: path, badValue: value, message: 'must be of type integer' }]
        : [];
    };
    expect(texts(withSpec({ type: 'object', properties: { n: { type: 'integer', default: 'three' } } }), { validateDefault })).toEqual([
      `${S}.properties[n].default: Invalid value: "three": must be of type integer`,
    ]);
    expect(seen).toEqual([['three', `${S}.properties[n].default`]]);
  });

  // kube's "v1.15 era tests for metadata defaults" (pkg/apis/apiextensions/validation/validation_test.go)
  it('defaults inside TypeMeta and ObjectMeta give valid metadata, and none are set in top-level metadata', () => {
    const version = (name: string, properties: Record<string, JSONSchema>): object => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: { openAPIV3Schema: { type: 'object', properties } },
    });
    const embedded = (properties: Record<string, JSONSchema>): JSONSchema => ({ type: 'object', 'x-kubernetes-embedded-resource': true, properties });
    const crd = widgetCRD();
    crd.spec.versions = [
      version('v1', {
        metadata: { type: 'object', default: { name: 'foo' } },
        embedded: embedded({ metadata: { type: 'object', default: { name: 'foo', unknown: 42 } } }),
      }),
      version('v2', {
        metadata: { type: 'object', properties: { name: { type: 'string', default: 'foo' } } },
        embedded: embedded({
          apiVersion: { type: 'string', default: 'v1' },
          kind: { type: 'string', default: 'Pod' },
          metadata: { type: 'object', properties: { name: { type: 'string', default: 'foo' } } },
        }),
      }),
      version('v3', {
        embedded: embedded({
          apiVersion: { type: 'string', default: 'v1' },
          kind: { type: 'string', default: '%' },
          metadata: { type: 'object', default: { labels: { bar: 'x y' } } },
        }),
      }),
      version('v4', {
        embedded: embedded({
          metadata: {
            type: 'object',
            properties: {
              name: { type: 'string', default: 42 },
              labels: { type: 'object', properties: { bar: { type: 'string', default: 42 } } },
            },
          },
        }),
      }),
    ];
    const V = (i: number): string => `spec.versions[${i}].schema.openAPIV3Schema`;
    expect(validate(crd).map((e) => `${e.type} ${e.field}`)).toEqual([
      `FieldValueForbidden ${V(0)}.properties[metadata].default`,
      `FieldValueForbidden ${V(1)}.properties[metadata].properties[name].default`,
      `FieldValueInvalid ${V(2)}.properties[embedded].properties[kind].default`,
      `FieldValueInvalid ${V(2)}.properties[embedded].properties[metadata].default`,
      `FieldValueInvalid ${V(3)}.properties[embedded].properties[metadata].properties[name].default`,
      `FieldValueInvalid ${V(3)}.properties[embedded].properties[metadata].properties[labels].properties[bar].default`,
    ]);
    expect(validate(crd).find((e) => e.field === `${V(2)}.properties[embedded].properties[kind].default`)?.message).toBe(
      "must result in valid metadata: kind: Invalid value: \"%\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  });
});
