import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@kapi/apimachinery';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './index.js';
import { fixtureFiles, loadCRD, prepareForCreate } from './testutil.js';

const files = [...fixtureFiles('gateway-api'), ...fixtureFiles('cert-manager')];

describe('real CRDs are valid', () => {
  it.each(files.map((f) => [f.split('/').slice(-2).join('/'), f]))('%s', (_, file) => {
    const crd = prepareForCreate(loadCRD(file));
    expect(validateCustomResourceDefinition(crd).map(formatFieldError)).toEqual([]);
    // an unchanged update of the Established CRD is valid too
    const established = { ...crd, status: { ...crd.status, conditions: [{ type: 'Established', status: 'True' }] } } as typeof crd;
    expect(validateCustomResourceDefinitionUpdate(established, established).map(formatFieldError)).toEqual([]);
  });
});
