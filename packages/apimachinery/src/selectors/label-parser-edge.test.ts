import { describe, expect, it } from 'vitest';
import { parseLabelRequirements } from './label-parser.js';

const values = (selector: string): readonly string[] | string => {
  const result = parseLabelRequirements(selector);
  return 'error' in result ? result.error : result.requirements[0].values;
};

describe('label selector parser edge cases (kube labels.Parse)', () => {
  it('reads runs of commas in a value list as kube does: the second comma of ",," is consumed', () => {
    expect(values('x in (a,,,b)')).toEqual(['', 'a', 'b']);
    expect(values('x in (,,b)')).toEqual(['', 'b']);
    expect(values('x in (,,,)')).toEqual(['']);
    expect(values('x in (,)')).toEqual(['']);
    expect(values('x in ()')).toEqual(['']);
    expect(values('x in (a,,)')).toBe("unable to parse requirement: found ')', expected: ',', or identifier");
    expect(values('x in (,,)')).toBe("unable to parse requirement: found ')', expected: ',', or identifier");
  });

  it('separates tokens by any ASCII whitespace and needs none around operators', () => {
    const result = parseLabelRequirements('x==y,z!=w,\ta\n in\r(b) ,c>1');
    expect(result).toEqual({
      requirements: [
        { key: 'x', operator: '==', values: ['y'] },
        { key: 'z', operator: '!=', values: ['w'] },
        { key: 'a', operator: 'in', values: ['b'] },
        { key: 'c', operator: 'gt', values: ['1'] },
      ],
    });
  });

  it('checks Gt and Lt values as int64', () => {
    expect(values('x>9223372036854775807')).toEqual(['9223372036854775807']);
    // a sign is fine for ParseInt but not for a label value, so kube rejects negative bounds
    expect(values('x<-1')).toBe(
      'unable to parse requirement: values[0][x]: Invalid value: "-1": a valid label must be an empty string or consist of ' +
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
    expect(values('x>9223372036854775808')).toBe(
      'unable to parse requirement: values[0]: Invalid value: "9223372036854775808": for \'Gt\', \'Lt\' operators, the value must be an integer',
    );
  });
});
