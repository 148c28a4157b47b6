import { describe, expect, it } from 'vitest';
import { fieldPath, fromAjv, fromAjvErrors, type AjvValidateFunction } from './ajv.js';
import { lazyValidators } from './lazy.js';

describe('ajv errors as kube field errors', () => {
  const data = { spec: { containers: [{ name: 1 }], selector: { '0': 'x' }, mode: 'Sideways' } };

  it('writes list indexes in brackets and map keys as fields', () => {
    expect(fieldPath('/spec/containers/0/name', data)).toBe('spec.containers[0].name');
    expect(fieldPath('/spec/selector/0', data)).toBe('spec.selector.0');
    expect(fieldPath('/a~1b/c~0d', { 'a/b': {} })).toBe('a/b.c~d');
    expect(fieldPath('', data)).toBe('');
  });

  it('maps required, type and enum errors to kube reasons with the bad value', () => {
    const errors = fromAjvErrors(
      [
        { instancePath: '/spec', keyword: 'required', params: { missingProperty: 'template' } },
        { instancePath: '/spec/containers/0/name', keyword: 'type', params: { type: 'string' } },
        { instancePath: '/spec/mode', keyword: 'enum', params: { allowedValues: ['Up', 'Down'] } },
        { instancePath: '/spec/mode', keyword: 'enum', params: { allowedValues: ['Up', 'Down'] } },
      ],
      data,
    );
    expect(errors).toEqual([
      { type: 'FieldValueRequired', field: 'spec.template', message: '' },
      { type: 'FieldValueTypeInvalid', field: 'spec.containers[0].name', badValue: 1, message: 'must be of type string' },
      { type: 'FieldValueNotSupported', field: 'spec.mode', badValue: 'Sideways', message: 'supported values: "Up", "Down"' },
    ]);
  });

  it('wraps a validate function: no errors when valid', () => {
    const validate: AjvValidateFunction = Object.assign((d: unknown) => {
      const ok = typeof d === 'object';
      validate.errors = ok ? null : [{ instancePath: '', keyword: 'type', params: { type: 'object' } }];
      return ok;
    });
    const check = fromAjv(validate);
    expect(check({})).toEqual([]);
    expect(check('x')).toEqual([{ type: 'FieldValueTypeInvalid', field: '', badValue: 'x', message: 'must be of type object' }]);
  });

  it("reports a union's failures once: a wrong JSON type as one type error, an alternative's own errors without the if/then summary", () => {
    // What codegen emits for a union (apiextensions' JSONSchemaPropsOrBool): its JSON types, and each alternative's
    // checks under `if` its type.
    const schemas = {
      'kapi://t/Schema.json': {
        type: 'object',
        properties: { minLength: { type: 'integer' }, additionalProperties: { $ref: './OrBool.json' } },
      },
      'kapi://t/OrBool.json': { type: ['boolean', 'object'], if: { type: 'object' }, then: { $ref: './Schema.json' } },
    };
    const { schema } = lazyValidators([schemas], { schema: 'kapi://t/Schema.json' });
    expect(schema({ additionalProperties: true })).toEqual([]);
    expect(schema({ additionalProperties: { additionalProperties: false, minLength: 1 } })).toEqual([]);
    expect(schema({ additionalProperties: 'yes' })).toEqual([
      { type: 'FieldValueTypeInvalid', field: 'additionalProperties', badValue: 'yes', message: 'must be of type boolean or object' },
    ]);
    expect(schema({ additionalProperties: { minLength: 'x' } })).toEqual([
      { type: 'FieldValueTypeInvalid', field: 'additionalProperties.minLength', badValue: 'x', message: 'must be of type integer' },
    ]);
  });

  it('lets packages share the schemas they refer to, and keeps a package whose schema of the same $id differs apart', () => {
    const meta = { 'kapi://shared/Meta.json': { type: 'object', properties: { name: { type: 'string' } } } };
    const kind = (id: string) => ({ [id]: { type: 'object', required: ['metadata'], properties: { metadata: { $ref: 'kapi://shared/Meta.json' } } } });
    // Two packages referring to the same Meta object, and a third with its own, different Meta under the same $id.
    const one = lazyValidators([kind('kapi://one/A.json'), meta], { a: 'kapi://one/A.json' });
    const two = lazyValidators([kind('kapi://two/B.json'), meta], { b: 'kapi://two/B.json' });
    const other = lazyValidators([kind('kapi://three/C.json'), { 'kapi://shared/Meta.json': { type: 'object', properties: { name: { type: 'integer' } } } }], { c: 'kapi://three/C.json' });
    expect(one.a!({ metadata: { name: 'x' } })).toEqual([]);
    expect(two.b!({ metadata: { name: 1 } })).toEqual([{ type: 'FieldValueTypeInvalid', field: 'metadata.name', badValue: 1, message: 'must be of type string' }]);
    expect(other.c!({ metadata: { name: 1 } })).toEqual([]);
    expect(other.c!({ metadata: { name: 'x' } })).toEqual([{ type: 'FieldValueTypeInvalid', field: 'metadata.name', badValue: 'x', message: 'must be of type integer' }]);
    // The first packages are not disturbed by the third.
    expect(one.a!({ metadata: { name: 2 } })).toHaveLength(1);
    expect(two.b!({})).toEqual([{ type: 'FieldValueRequired', field: 'metadata', message: '' }]);
  });
});
