import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate } from './index.js';
import { errorText, prepareForCreate, widgetCRD } from './testutil.js';

const texts = (crd: unknown): string[] => validate(crd as any).map(errorText);
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** widgetCRD with a second version v2 (a copy of v1, not the storage version). */
function twoVersions(): any {
  const crd = widgetCRD();
  crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: false });
  return crd;
}

describe('scope and versions', () => {
  it('scope is Cluster or Namespaced', () => {
    const crd = widgetCRD();
    crd.spec.scope = 'Global';
    expect(texts(crd)).toEqual(['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
  });

  it('scope is required', () => {
    const crd = widgetCRD();
    crd.spec.scope = '';
    expect(texts(crd)).toEqual(['spec.scope: Required value']);
  });

  it('version names are DNS-1035 labels (the first one is reported as spec.version too)', () => {
    const crd = widgetCRD();
    crd.spec.versions[0].name = 'V1';
    crd.status.storedVersions = ['V1'];
    expect(texts(crd)).toEqual([`spec.versions[0].name: Invalid value: "V1": ${DNS1035}`, `spec.version: Invalid value: "V1": ${DNS1035}`]);
  });

  it('version names are unique', () => {
    const crd = twoVersions();
    crd.spec.versions[1].name = 'v1';
    const errs = validate(crd);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ type: 'FieldValueInvalid', field: 'spec.versions', message: 'must contain unique version names' });
  });

  it('exactly one version is the storage version', () => {
    const crd = twoVersions();
    crd.spec.versions[1].storage = true;
    // PrepareForCreate records the first storage version only
    expect(validate(prepareForCreate(crd))).toMatchObject([
      { type: 'FieldValueInvalid', field: 'spec.versions', message: 'must have exactly one version marked as storage version' },
      { type: 'FieldValueInvalid', field: 'status.storedVersions', badValue: ['v1'], message: 'must have the storage version v2' },
    ]);
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = false;
    expect(texts(prepareForCreate(crd))).toEqual([
      expect.stringMatching(/^spec.versions: Invalid value: .*: must have exactly one version marked as storage version$/),
      'status.storedVersions: Invalid value: []: must have at least one stored version',
    ]);
  });

  it('no versions: no storage version, nothing stored', () => {
    const crd = widgetCRD();
    crd.spec.versions = [];
    expect(texts(prepareForCreate(crd))).toEqual([
      'spec.versions: Invalid value: []: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: []: must have at least one stored version',
    ]);
  });

  it('every version has a schema', () => {
    const crd = twoVersions();
    delete crd.spec.versions[1].schema;
    expect(texts(crd)).toEqual(['spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required']);
  });

  it('a deprecation warning needs deprecated: true', () => {
    const crd = widgetCRD();
    crd.spec.versions[0].deprecationWarning = 'use v2';
    expect(texts(crd)).toEqual(['spec.versions[0].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions']);
  });

  it('a deprecation warning is printable and at most 256 bytes', () => {
    const crd = widgetCRD();
    crd.spec.versions[0].deprecated = true;
    crd.spec.versions[0].deprecationWarning = 'a\tb';
    expect(texts(crd)).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "a\\tb": must only contain printable UTF-8 characters; non-printable character found at index 1',
    ]);
    crd.spec.versions[0].deprecationWarning = 'x'.repeat(257);
    expect(validate(crd)).toMatchObject([{ field: 'spec.versions[0].deprecationWarning', message: 'must be <= 256 characters long' }]);
  });

  it('schemas identical in all versions are reported at spec.validation, as kube converts them', () => {
    const crd = twoVersions();
    for (const v of crd.spec.versions) v.schema.openAPIV3Schema.properties.spec.properties.replicas = {};
    expect(texts(crd)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('schemas that differ are reported per version', () => {
    const crd = twoVersions();
    crd.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.replicas = {};
    expect(texts(crd)).toEqual([
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('preserveUnknownFields cannot be true', () => {
    const crd = widgetCRD();
    crd.spec.preserveUnknownFields = true;
    expect(texts(crd)).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });

  it('preserveUnknownFields true also forbids defaults and conversion webhooks', () => {
    const crd = widgetCRD();
    crd.spec.preserveUnknownFields = true;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.default = 1;
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://example.com/convert' } } };
    expect(texts(crd)).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
      'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });
});
