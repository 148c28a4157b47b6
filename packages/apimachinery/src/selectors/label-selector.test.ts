import { describe, expect, it } from 'vitest';
import { isStatusError } from '../errors/status-error.js';
import { labelSelectorFromObject } from './label-selector-object.js';
import { labelSelectorFromSet, newLabelRequirement, parseLabelSelector } from './label-selector.js';

const errorOf = (fn: () => unknown): { code?: number; reason?: string; message?: string } => {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return { code: err.status.code, reason: err.status.reason, message: err.status.message };
    throw err;
  }
  throw new Error('expected a StatusError');
};

const KEY_NAME_ERR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector', () => {
  it('parses every operator and sorts requirements by key', () => {
    const sel = parseLabelSelector('z notin (), x in (foo,,baz), y, !w, a=b, b==c, c!=d, n>5, m<10');
    expect(sel.requirements).toEqual([
      { key: 'a', operator: '=', values: ['b'] },
      { key: 'b', operator: '==', values: ['c'] },
      { key: 'c', operator: '!=', values: ['d'] },
      { key: 'm', operator: 'lt', values: ['10'] },
      { key: 'n', operator: 'gt', values: ['5'] },
      { key: 'w', operator: '!', values: [] },
      { key: 'x', operator: 'in', values: ['', 'baz', 'foo'] },
      { key: 'y', operator: 'exists', values: [] },
      { key: 'z', operator: 'notin', values: [''] },
    ]);
    expect(sel.toString()).toBe('a=b,b==c,c!=d,m<10,n>5,!w,x in (,baz,foo),y,z notin ()');
  });

  it('treats in and notin as values inside parentheses, and empty values after =', () => {
    expect(parseLabelSelector('in in (in,notin)').requirements).toEqual([{ key: 'in', operator: 'in', values: ['in', 'notin'] }]);
    expect(parseLabelSelector('x=,z= ').requirements).toEqual([
      { key: 'x', operator: '=', values: [''] },
      { key: 'z', operator: '=', values: [''] },
    ]);
    expect(parseLabelSelector('   ').isEmpty()).toBe(true);
    expect(parseLabelSelector('example.com/tier=web').requirements[0].key).toBe('example.com/tier');
  });

  it('matches labels as kube does', () => {
    const labels = { env: 'prod', tier: 'web', n: '7' };
    const cases: [string, boolean][] = [
      ['', true],
      ['env=prod', true],
      ['env==dev', false],
      ['env!=dev', true],
      ['missing!=x', true],
      ['env in (dev,prod),tier', true],
      ['env notin (prod)', false],
      ['missing notin (prod)', true],
      ['!env', false],
      ['!missing', true],
      ['n>5,n<8', true],
      ['n>7', false],
      ['env>1', false],
    ];
    for (const [selector, matches] of cases) expect(parseLabelSelector(selector).matches(labels), selector).toBe(matches);
    expect(parseLabelSelector('env').matches(undefined)).toBe(false);
    expect(parseLabelSelector('!env').matches(null)).toBe(true);
    expect(parseLabelSelector('env=prod').requiresExactMatch('env')).toBe('prod');
    expect(parseLabelSelector('env in (a,b)').requiresExactMatch('env')).toBeUndefined();
  });

  it('rejects malformed selectors with kube messages', () => {
    const cases: [string, string][] = [
      ['x=a,', "found '', expected: identifier after ','"],
      [',x=a', "found ',', expected: !, identifier, or 'end of string'"],
      ['x==a==b', "found '==', expected: ',' or 'end of string'"],
      ['x notin a', "unable to parse requirement: found 'a' expected: '('"],
      ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
      ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
      ['x in ((', "unable to parse requirement: found '(', expected: ',', ')' or identifier"],
      ['x in (a,(', "unable to parse requirement: found '(', expected: ',', or identifier"],
      ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
      ['x=(', "unable to parse requirement: found '(', expected: identifier"],
      ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
      ['! =a', "unable to parse requirement: found '=', expected: identifier"],
      ['!x=a', "found '=', expected: ',' or 'end of string'"],
      ['app:monolith', `unable to parse requirement: <nil>: Invalid value: "app:monolith": ${KEY_NAME_ERR}`],
      ['a/b/c=d', 'unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key ' +
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
      ['Example.com/a=b', 'unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 subdomain ' +
        "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
      ['x=a@b', `unable to parse requirement: values[0][x]: Invalid value: "a@b": ${VALUE_ERR}`],
      ['x>a', 'unable to parse requirement: values[0]: Invalid value: "a": for \'Gt\', \'Lt\' operators, the value must be an integer'],
      [`x=${'a'.repeat(64)}`, `unable to parse requirement: values[0][x]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`],
    ];
    for (const [selector, message] of cases) {
      expect(errorOf(() => parseLabelSelector(selector)), selector).toEqual({ code: 400, reason: 'BadRequest', message });
    }
  });
});

describe('labelSelectorFromObject', () => {
  it('maps null to nothing and {} to everything', () => {
    expect(labelSelectorFromObject(null).matches({})).toBe(false);
    expect(labelSelectorFromObject(undefined).matchesNothing).toBe(true);
    expect(labelSelectorFromObject({}).matches({ a: 'b' })).toBe(true);
    expect(labelSelectorFromObject({}).isEmpty()).toBe(true);
  });

  it('ANDs matchLabels and matchExpressions', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['b', 'a'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(sel.toString()).toBe('app=web,env notin (dev),!legacy,owner,tier in (a,b)');
    expect(sel.matches({ app: 'web', tier: 'a', owner: 'x' })).toBe(true);
    expect(sel.matches({ app: 'web', tier: 'a', owner: 'x', legacy: '' })).toBe(false);
    expect(sel.matches({ app: 'web', tier: 'c', owner: 'x' })).toBe(false);
  });

  it('rejects bad operators, keys and values with kube messages', () => {
    expect(errorOf(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).message).toBe(
      '"Gt" is not a valid label selector operator',
    );
    expect(errorOf(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).message).toBe(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(errorOf(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] })).message).toBe(
      'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
    );
    expect(errorOf(() => labelSelectorFromObject({ matchLabels: { 'a b': 'c@' } })).message).toBe(
      `[key: Invalid value: "a b": ${KEY_NAME_ERR}, values[0][a b]: Invalid value: "c@": ${VALUE_ERR}]`,
    );
  });
});

describe('requirements and sets', () => {
  it('validates single requirements', () => {
    expect(newLabelRequirement('a', 'in', ['x'])).toEqual({ key: 'a', operator: 'in', values: ['x'] });
    expect(errorOf(() => newLabelRequirement('a', '=', ['x', 'y'])).message).toBe(
      'values: Invalid value: []string{"x", "y"}: exact-match compatibility requires one single value',
    );
    expect(errorOf(() => newLabelRequirement('a', 'bogus' as never, [])).message).toBe(
      'operator: Unsupported value: "bogus": supported values: "in", "notin", "=", "==", "!=", "exists", "!", "gt", "lt"',
    );
  });

  it('builds selectors from label sets', () => {
    const sel = labelSelectorFromSet({ b: '2', a: '1' });
    expect(sel.toString()).toBe('a=1,b=2');
    expect(sel.matches({ a: '1', b: '2', c: '3' })).toBe(true);
    expect(labelSelectorFromSet(undefined).isEmpty()).toBe(true);
  });
});
