import { describe, expect, it } from 'vitest';
import { canonicalQuantity, QUANTITY_FORMAT_ERROR } from './quantity.js';

// Expected values are what k8s.io/apimachinery's resource.MustParse(x).String() gives.
describe('canonicalQuantity (resource.Quantity.String)', () => {
  it.each([
    ['1024Mi', '1Gi'], ['0.5', '500m'], ['1.5k', '1500'], ['1000m', '1'], ['100m', '100m'], ['0.5Gi', '512Mi'],
    ['1.1Ki', '1126400m'], ['1.5Ki', '1536'], ['1536', '1536'], ['1e3', '1e3'], ['1.5e3', '1500'], ['12e6', '12e6'],
    ['1E3', '1e3'], ['0.1n', '1n'], ['-1Ki', '-1Ki'], ['-0.5', '-500m'], ['0', '0'], ['0Mi', '0'], ['+5', '5'],
    ['1M', '1M'], ['1000k', '1M'], ['2000000', '2M'], ['5Gi', '5Gi'], ['.5', '500m'], ['5.', '5'], ['10u', '10u'],
    ['1500Mi', '1500Mi'], ['2048Ki', '2Mi'], ['1Ei', '1Ei'], ['1024Ei', '9223372036854775807'], ['1E', '1E'],
    ['100Gi', '100Gi'], ['128974848', '128974848'], ['129e6', '129e6'], ['123Mi', '123Mi'], ['0.000000001', '1n'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });

  it('takes JSON numbers, as Go reads an unquoted quantity', () => {
    expect(canonicalQuantity(1.5)).toBe('1500m');
    expect(canonicalQuantity(2)).toBe('2');
    expect(canonicalQuantity(1e21)).toBe('9223372036854775807');
  });

  it('refuses what is not a quantity, with kube’s message', () => {
    for (const bad of ['', 'abc', '1.2.3', '1Ki3', 'Mi', '1e', '1 Gi', '--1', '1Qi']) {
      expect(() => canonicalQuantity(bad), bad).toThrow();
    }
    expect(() => canonicalQuantity('abc')).toThrow(QUANTITY_FORMAT_ERROR);
  });
});
