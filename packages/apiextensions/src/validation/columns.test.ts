import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate } from './index.js';
import { errorText, widgetCRD } from './testutil.js';

const texts = (columns: object[]): string[] => {
  const crd = widgetCRD();
  crd.spec.versions[0].additionalPrinterColumns = columns;
  return validate(crd).map(errorText);
};
const C = 'spec.additionalPrinterColumns[0]';

describe('additionalPrinterColumns', () => {
  it('accepts a well-formed column', () => {
    expect(texts([{ name: 'Replicas', type: 'integer', format: 'int32', jsonPath: '.spec.replicas', priority: 1 }])).toEqual([]);
  });

  it('a column has a name', () => {
    expect(texts([{ name: '', type: 'string', jsonPath: '.spec.color' }])).toEqual([`${C}.name: Required value`]);
  });

  it('a column has a type kube prints', () => {
    expect(texts([{ name: 'A', type: '', jsonPath: '.spec.color' }])).toEqual([`${C}.type: Required value: must be one of boolean,date,integer,number,string`]);
    expect(texts([{ name: 'A', type: 'object', jsonPath: '.spec.color' }])).toEqual([
      `${C}.type: Invalid value: "object": must be one of boolean,date,integer,number,string`,
    ]);
  });

  it('a format is one kube knows', () => {
    expect(texts([{ name: 'A', type: 'string', format: 'uuid', jsonPath: '.spec.color' }])).toEqual([
      `${C}.format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password`,
    ]);
  });

  it('jsonPath is a simple JSON path (kube names the field JSONPath)', () => {
    expect(texts([{ name: 'A', type: 'string', jsonPath: 'spec.color' }])).toEqual([
      `${C}.JSONPath: Invalid value: "spec.color": must be a simple json path starting with .`,
    ]);
    expect(texts([{ name: 'A', type: 'string', jsonPath: '' }])).toEqual([`${C}.JSONPath: Required value`]);
  });

  it('columns that differ between versions are reported per version', () => {
    const crd = widgetCRD();
    crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false });
    crd.spec.versions[1].additionalPrinterColumns = [{ name: 'A', type: 'string', jsonPath: 'x' }];
    expect(validate(crd).map(errorText)).toEqual([
      'spec.versions[1].additionalPrinterColumns[0].JSONPath: Invalid value: "x": must be a simple json path starting with .',
    ]);
  });
});
