import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate } from './index.js';
import { errorText, widgetCRD } from './testutil.js';

const texts = (paths: string[]): string[] => {
  const crd = widgetCRD();
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.labels = { type: 'object', additionalProperties: { type: 'string' } };
  crd.spec.versions[0].selectableFields = paths.map((jsonPath) => ({ jsonPath }));
  return validate(crd).map(errorText);
};
const F = 'spec.selectableFields';

describe('selectableFields', () => {
  it('accepts string, integer and boolean fields', () => {
    expect(texts(['.spec.color', '.spec.replicas', '.status.replicas', '.spec.labels.team'])).toEqual([]);
  });

  it('the field is a string, boolean or integer', () => {
    expect(texts(['.spec'])).toEqual([
      `${F}[0].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
    ]);
  });

  it('the path names a field', () => {
    expect(texts(['.spec.size', 'spec.color', ".spec['color']"])).toEqual([
      `${F}[0].jsonPath: Invalid value: ".spec.size": is an invalid path: does not refer to a valid field`,
      `${F}[1].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec`,
      `${F}[2].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed`,
    ]);
  });

  it('the field is not in metadata', () => {
    const crd = widgetCRD();
    crd.spec.versions[0].schema.openAPIV3Schema.properties.metadata = { type: 'object', properties: { name: { type: 'string' } } };
    crd.spec.versions[0].selectableFields = [{ jsonPath: '.metadata.name' }];
    expect(validate(crd).map(errorText)).toEqual([`${F}[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata`]);
  });

  it('each field once', () => {
    expect(texts(['.spec.color', '.spec.color'])).toEqual([`${F}[1].jsonPath: Duplicate value: ".spec.color"`]);
  });

  it('at most 8', () => {
    expect(texts(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k) => `.spec.labels.${k}`))).toEqual([`${F}: Too many: 9: must have at most 8 items`]);
  });

  it('fields that differ between versions, with schemas that differ, are reported per version', () => {
    const crd = widgetCRD();
    crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false, selectableFields: [{ jsonPath: '.spec' }] });
    crd.spec.versions[1].schema.openAPIV3Schema.properties.spec.description = 'v2';
    expect(validate(crd).map((e) => e.field)).toEqual(['spec.versions[1].selectableFields[0].jsonPath']);
  });

  // kube hoists identical per-version schemas and selectable fields independently (kubernetes/kubernetes#140689):
  // a version then has selectable fields but, internally, no schema of its own, or the reverse.
  it('as kube: per-version fields with a schema shared by all versions are rejected', () => {
    const crd = widgetCRD();
    crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false, selectableFields: [{ jsonPath: '.spec.color' }] });
    expect(validate(crd).map(errorText)).toEqual([
      'spec.versions[1].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included',
    ]);
  });

  it('as kube: fields shared by all versions with schemas that differ are rejected', () => {
    const crd = widgetCRD();
    crd.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }];
    crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false });
    crd.spec.versions[1].schema.openAPIV3Schema.properties.spec.description = 'v2';
    expect(validate(crd).map(errorText)).toEqual([
      'spec.selectableFields: Invalid value: "": selectableFields may only be set when validations.schema is included',
    ]);
  });
});
