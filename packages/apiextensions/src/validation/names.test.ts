import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate, validateCustomResourceDefinitionStatus } from './index.js';
import { errorText, widgetCRD } from './testutil.js';

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const texts = (crd: unknown): string[] => validate(crd as any).map(errorText);

describe('names', () => {
  it('accepts the minimal CRD', () => {
    expect(texts(widgetCRD())).toEqual([]);
  });

  it('metadata.name must be <plural>.<group>', () => {
    const crd = widgetCRD();
    crd.metadata.name = 'gadgets.example.com';
    expect(texts(crd)).toEqual(['metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group']);
  });

  it('metadata.generateName is held to the same rule', () => {
    const crd = widgetCRD();
    crd.metadata.generateName = 'widgets-';
    expect(texts(crd)).toEqual(['metadata.generateName: Invalid value: "widgets-": must be spec.names.plural+"."+spec.group']);
  });

  it('spec.group is required', () => {
    const crd = widgetCRD();
    crd.spec.group = '';
    crd.metadata.name = 'widgets.';
    expect(texts(crd)).toEqual(['spec.group: Required value']);
  });

  it('spec.group must be a DNS subdomain', () => {
    const crd = widgetCRD();
    crd.spec.group = 'Example.com';
    crd.metadata.name = 'widgets.Example.com';
    expect(texts(crd)).toEqual([
      "spec.group: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('spec.group needs a dot', () => {
    const crd = widgetCRD();
    crd.spec.group = 'example';
    crd.metadata.name = 'widgets.example';
    expect(texts(crd)).toEqual(['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  });

  it('plural and singular are DNS-1035 labels', () => {
    const crd = widgetCRD();
    crd.spec.names.plural = 'Widgets';
    crd.spec.names.singular = '1widget';
    crd.metadata.name = 'Widgets.example.com';
    expect(texts(crd)).toEqual([
      `spec.names.plural: Invalid value: "Widgets": ${DNS1035}`,
      `spec.names.singular: Invalid value: "1widget": ${DNS1035}`,
    ]);
  });

  it('kind and listKind may have mixed case, but are otherwise DNS-1035 labels', () => {
    const crd = widgetCRD();
    crd.spec.names.kind = 'Wid_get';
    crd.spec.names.listKind = 'Wid_getList';
    expect(texts(crd)).toEqual([
      `spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.listKind: Invalid value: "Wid_getList": may have mixed case, but should otherwise match: ${DNS1035}`,
    ]);
  });

  it('listKind differs from kind', () => {
    const crd = widgetCRD();
    crd.spec.names.listKind = 'Widget';
    expect(texts(crd)).toEqual(['spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same']);
  });

  it('shortNames and categories are DNS-1035 labels', () => {
    const crd = widgetCRD();
    crd.spec.names.shortNames = ['wd', 'w.d'];
    crd.spec.names.categories = ['all', 'My_Things'];
    expect(texts(crd)).toEqual([
      `spec.names.shortNames[1]: Invalid value: "w.d": ${DNS1035}`,
      `spec.names.categories[1]: Invalid value: "My_Things": ${DNS1035}`,
    ]);
  });

  it('a name longer than 63 characters is too long', () => {
    const crd = widgetCRD();
    crd.spec.names.shortNames = ['w'.repeat(64)];
    expect(texts(crd)).toEqual([`spec.names.shortNames[0]: Invalid value: "${'w'.repeat(64)}": must be no more than 63 characters`]);
  });

  it('spec names are required (singular and listKind are defaulted before validation)', () => {
    const crd = widgetCRD();
    crd.spec.names.singular = '';
    crd.spec.names.listKind = '';
    expect(texts(crd)).toEqual(['spec.names.singular: Required value', 'spec.names.listKind: Required value']);
  });

  it('status.acceptedNames follow the same rules on a status write', () => {
    const crd = widgetCRD();
    crd.status.acceptedNames = { plural: 'widgets', kind: 'Widget', listKind: 'Widget' };
    expect(validateCustomResourceDefinitionStatus(crd, widgetCRD()).map(errorText)).toEqual([
      'status.acceptedNames.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ]);
  });
});
