import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kapi/apimachinery';
import { createConversions } from '../generated/index.js';
import { hooks } from './conversion.js';
import { plugin } from './plugin.js';

const ALPHA = 'wardle.example.com/v1alpha1';
const BETA = 'wardle.example.com/v1beta1';
const flunders = createConversions(hooks).Flunder;
const convert = (obj: KubeObject, to: string) => (flunders.convert([obj], to) as KubeObject[])[0];
const flunder = (apiVersion: string, spec?: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion,
  kind: 'Flunder',
  metadata: { name: 'f', namespace: 'default', ...(annotations ? { annotations } : {}) },
  ...(spec ? { spec } : {}),
});

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

describe('Flunder conversion (k8s.io/sample-apiserver)', () => {
  it('is installed by the plugin, stored in v1beta1', () => {
    expect(plugin.conversions?.Flunder.storageVersion).toBe('v1beta1');
  });

  it('turns v1alpha1 reference into the v1beta1 reference its type names, and back', () => {
    expect(convert(flunder(ALPHA, { reference: 'f2', referenceType: 'Flunder' }), BETA)).toEqual(flunder(BETA, { flunderReference: 'f2', referenceType: 'Flunder' }));
    expect(convert(flunder(ALPHA, { reference: 'fi', referenceType: 'Fischer' }), BETA)).toEqual(flunder(BETA, { fischerReference: 'fi', referenceType: 'Fischer' }));
    expect(convert(flunder(BETA, { fischerReference: 'fi', referenceType: 'Fischer' }), ALPHA)).toEqual(flunder(ALPHA, { reference: 'fi', referenceType: 'Fischer' }));
    expect(convert(flunder(BETA, { flunderReference: 'f2', referenceType: 'Flunder' }), ALPHA)).toEqual(flunder(ALPHA, { reference: 'f2', referenceType: 'Flunder' }));
  });

  it('keeps the reference v1alpha1 cannot hold in the v1beta1 annotation', () => {
    const served = convert(flunder(BETA, { flunderReference: 'f2', fischerReference: 'fi', referenceType: 'Fischer' }, { mine: 'x' }), ALPHA);
    expect(served).toEqual(flunder(ALPHA, { reference: 'fi', referenceType: 'Fischer' }, { mine: 'x', 'conversion.kapi.dev/v1beta1': '{"spec":{"flunderReference":"f2"}}' }));
  });

  const annotations = fc.option(
    fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !k.startsWith('conversion.kapi.dev/')), fc.string(), { minKeys: 1 }),
    { nil: undefined },
  );
  const referenceType = fc.constantFrom('Flunder', 'Fischer');
  const status = fc.option(fc.constant({}), { nil: undefined });
  const object = (apiVersion: string, spec: fc.Arbitrary<Record<string, unknown>>) =>
    fc.record({ spec: fc.option(spec, { nil: undefined }), annotations, status }).map(({ spec, annotations, status }) =>
      // As decoded from a request body: plain JSON objects (fast-check also makes null-prototype ones).
      deepFreeze(JSON.parse(JSON.stringify({ ...flunder(apiVersion, spec, annotations), ...(status ? { status } : {}) })) as KubeObject),
    );
  const alpha = object(ALPHA, fc.record({ reference: fc.string(), referenceType }, { requiredKeys: [] }));
  const beta = object(BETA, fc.record({ flunderReference: fc.string(), fischerReference: fc.string(), referenceType }, { requiredKeys: [] }));

  it('round-trips any v1alpha1 Flunder through v1beta1 losslessly (V→S→V)', () => {
    fc.assert(
      fc.property(alpha, (original) => {
        expect(convert(convert(original, BETA), ALPHA)).toStrictEqual(original);
      }),
    );
  });

  it('round-trips any v1beta1 Flunder through v1alpha1 losslessly (S→V→S)', () => {
    fc.assert(
      fc.property(beta, (original) => {
        expect(convert(convert(original, ALPHA), BETA)).toStrictEqual(original);
      }),
    );
  });
});
