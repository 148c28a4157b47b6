import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate } from './index.js';
import { errorText, widgetCRD } from './testutil.js';

const texts = (subresources: object): string[] => {
  const crd = widgetCRD();
  crd.spec.versions[0].subresources = subresources;
  return validate(crd).map(errorText);
};
const SC = 'spec.subresources.scale';

describe('subresources', () => {
  it('accepts status and scale', () => {
    expect(texts({ status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } })).toEqual([]);
  });

  it('scale paths are required', () => {
    expect(texts({ scale: { specReplicasPath: '', statusReplicasPath: '' } })).toEqual([`${SC}.specReplicasPath: Required value`, `${SC}.statusReplicasPath: Required value`]);
  });

  it('specReplicasPath is under .spec, statusReplicasPath under .status', () => {
    expect(texts({ scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '.spec.replicas' } })).toEqual([
      `${SC}.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec`,
      `${SC}.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status`,
    ]);
  });

  it('labelSelectorPath is under .spec or .status', () => {
    expect(texts({ scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.metadata.labels' } })).toEqual([
      `${SC}.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status`,
    ]);
  });

  it('paths start with a dot', () => {
    expect(texts({ scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.status.replicas' } })).toEqual([
      `${SC}.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .`,
    ]);
  });
});
