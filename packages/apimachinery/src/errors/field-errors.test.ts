import { describe, expect, it } from 'vitest';
import { aggregateMessages, fieldErrorBody, fieldErrorToCause, formatFieldError } from './field-errors.js';
import { goFloat, goQuote, goStringMap, goStringSlice } from './go-format.js';

describe('field errors', () => {
  it('formats bodies like kube field.Error', () => {
    expect(fieldErrorBody({ type: 'FieldValueRequired', field: 'a', message: '' })).toBe('Required value');
    expect(fieldErrorBody({ type: 'FieldValueRequired', field: 'a', message: 'name or generateName is required' })).toBe(
      'Required value: name or generateName is required',
    );
    expect(fieldErrorBody({ type: 'FieldValueTooLong', field: 'a', badValue: 'xxxx', message: 'may not be more than 3 bytes' })).toBe(
      'Too long: may not be more than 3 bytes',
    );
    expect(fieldErrorBody({ type: 'FieldValueInvalid', field: 'a', badValue: null, message: 'bad' })).toBe('Invalid value: "null": bad');
    expect(fieldErrorBody({ type: 'FieldValueInvalid', field: 'a', badValue: true, message: '' })).toBe('Invalid value: true');
    expect(fieldErrorBody({ type: 'FieldValueTypeInvalid', field: 'a', badValue: 'x', message: 'must be integer' })).toBe(
      'Invalid value: "x": must be integer',
    );
    expect(fieldErrorBody({ type: 'FieldValueDuplicate', field: 'a', badValue: 'x', message: '' })).toBe('Duplicate value: "x"');
    expect(fieldErrorBody({ type: 'FieldValueNotFound', field: 'a', badValue: 'x', message: '' })).toBe('Not found: "x"');
    expect(fieldErrorBody({ type: 'FieldValueTooMany', field: 'a', badValue: 5, message: 'must have at most 3 items' })).toBe(
      'Too many: 5: must have at most 3 items',
    );
    expect(fieldErrorBody({ type: 'InternalError', field: 'a', message: 'oops' })).toBe('Internal error: oops');
    expect(fieldErrorBody({ type: 'FieldValueInvalid', field: 'a', badValue: ['x'], message: 'm' })).toBe('Invalid value: ["x"]: m');
  });

  it('prefixes the field path and maps to a cause', () => {
    const err = { type: 'FieldValueInvalid' as const, field: 'metadata.name', badValue: 'A', message: 'lowercase' };
    expect(formatFieldError(err)).toBe('metadata.name: Invalid value: "A": lowercase');
    expect(fieldErrorToCause(err)).toEqual({ reason: 'FieldValueInvalid', message: 'Invalid value: "A": lowercase', field: 'metadata.name' });
    expect(fieldErrorToCause({ type: 'FieldValueRequired', field: '', message: '' })).toEqual({
      reason: 'FieldValueRequired', message: 'Required value',
    });
  });

  it('aggregates like utilerrors', () => {
    expect(aggregateMessages([])).toBe('');
    expect(aggregateMessages(['a'])).toBe('a');
    expect(aggregateMessages(['a', 'b', 'a'])).toBe('[a, b]');
    expect(aggregateMessages(['a', 'a'])).toBe('a');
  });

  it('quotes and prints values like Go', () => {
    expect(goQuote('a"b\\c\n\t\x01é\u200b')).toBe('"a\\"b\\\\c\\n\\t\\x01é\\u200b"');
    expect(goFloat(1.5)).toBe('1.5');
    expect(goFloat(0.00001)).toBe('1e-05');
    expect(goFloat(1e21)).toBe('1e+21');
    expect(goFloat(-3)).toBe('-3');
    // float64 %v switches to exponent form from 1e6 (strconv's shortest 'g'), not from 1e21 as JavaScript does
    expect(goFloat(1234567.5)).toBe('1.2345675e+06');
    expect(goFloat(999999.5)).toBe('999999.5');
    expect(goFloat(-0.00001234)).toBe('-1.234e-05');
    expect(goFloat(0.0001)).toBe('0.0001');
    expect(goFloat(1e300)).toBe('1e+300');
    expect(goFloat(Number.NEGATIVE_INFINITY)).toBe('-Inf');
    expect(goStringSlice(['a', 'b'])).toBe('[]string{"a", "b"}');
    expect(goStringSlice(undefined)).toBe('[]string(nil)');
    // fmt prints a map's keys sorted
    expect(goStringMap({ tier: 'db', app: 'we"b' })).toBe('map[string]string{"app":"we\\"b", "tier":"db"}');
    expect(goStringMap({})).toBe('map[string]string{}');
    expect(goStringMap(undefined)).toBe('map[string]string(nil)');
  });
});
