import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate, validateCustomResourceDefinitionUpdate as validateUpdate } from './index.js';
import { errorText, widgetCRD } from './testutil.js';

const established = (): any => {
  const crd = widgetCRD();
  crd.status.conditions = [{ type: 'Established', status: 'True' }];
  return crd;
};
const texts = (crd: unknown, old: unknown): string[] => validateUpdate(crd as any, old as any).map(errorText);

describe('update', () => {
  it('accepts an unchanged CRD', () => {
    expect(texts(established(), established())).toEqual([]);
  });

  it('spec.group and spec.names.plural never change', () => {
    const crd = widgetCRD();
    crd.spec.group = 'example.org';
    crd.spec.names.plural = 'gizmos';
    expect(texts(crd, widgetCRD())).toEqual([
      'spec.group: Invalid value: "example.org": field is immutable',
      'spec.names.plural: Invalid value: "gizmos": field is immutable',
    ]);
  });

  it('spec.scope and spec.names.kind are immutable once Established', () => {
    const crd = established();
    crd.spec.scope = 'Cluster';
    crd.spec.names.kind = 'Gizmo';
    crd.spec.names.listKind = 'GizmoList';
    expect(texts(crd, established())).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gizmo": field is immutable',
    ]);
    crd.status.conditions = [];
    expect(texts(crd, widgetCRD())).toEqual([]);
  });

  it('a version still in status.storedVersions stays in spec.versions', () => {
    const old = widgetCRD();
    old.spec.versions.push({ ...structuredClone(old.spec.versions[0]), name: 'v2', storage: false });
    const crd = structuredClone(old);
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    crd.status.storedVersions = ['v1', 'v2']; // PrepareForUpdate adds the new storage version
    expect(texts(crd, old)).toEqual([]);
    crd.spec.versions.shift();
    expect(texts(crd, old)).toEqual([
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });

  it('status.storedVersions holds the storage version', () => {
    const crd = widgetCRD();
    crd.spec.versions.push({ ...structuredClone(crd.spec.versions[0]), name: 'v2', storage: true });
    crd.spec.versions[0].storage = false;
    expect(texts(crd, widgetCRD())).toEqual(['status.storedVersions: Invalid value: ["v1"]: must have the storage version v2']);
  });

  it('rules the stored CRD already breaks are not enforced anew', () => {
    const setOfObjects = (crd: any): any => {
      crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tags = {
        type: 'array',
        'x-kubernetes-list-type': 'set',
        items: { type: 'object', properties: { k: { type: 'string' } } },
      };
      return crd;
    };
    const msg = 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set';
    expect(validate(setOfObjects(widgetCRD())).map(errorText)).toEqual([msg]);
    expect(texts(setOfObjects(widgetCRD()), widgetCRD())).toEqual([msg]);
    expect(texts(setOfObjects(widgetCRD()), setOfObjects(widgetCRD()))).toEqual([]);
  });
});

describe('API approval of protected groups', () => {
  const inGroup = (group: string, approval?: string): any => {
    const crd = widgetCRD();
    crd.spec.group = group;
    crd.metadata.name = `widgets.${group}`;
    if (approval !== undefined) crd.metadata.annotations = { 'api-approved.kubernetes.io': approval };
    return crd;
  };
  const A = 'metadata.annotations[api-approved.kubernetes.io]';

  it('a *.k8s.io or *.kubernetes.io group needs the annotation', () => {
    expect(validate(inGroup('widgets.k8s.io')).map(errorText)).toEqual([
      `${A}: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`,
    ]);
  });

  it('the annotation is a URL or starts with "unapproved"', () => {
    expect(validate(inGroup('x.kubernetes.io', 'https://github.com/kubernetes/enhancements/pull/1111')).map(errorText)).toEqual([]);
    expect(validate(inGroup('x.kubernetes.io', 'unapproved, experimental')).map(errorText)).toEqual([]);
    expect(validate(inGroup('x.kubernetes.io', 'yes')).map(errorText)).toEqual([
      `${A}: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    ]);
  });

  it('an update that keeps the approval state is accepted', () => {
    expect(texts(inGroup('x.k8s.io'), inGroup('x.k8s.io'))).toEqual([]);
  });
});
