import { describe, expect, it } from 'vitest';
import { goQuantityRepr } from './go-quantity.js';

describe('goQuantityRepr', () => {
  it('prints quantities as Go prints a resource.Quantity with %#v', () => {
    expect(goQuantityRepr('-500m')).toBe('resource.Quantity{i:resource.int64Amount{value:-500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-500m", Format:"DecimalSI"}');
    expect(goQuantityRepr('-0.5')).toBe('resource.Quantity{i:resource.int64Amount{value:-5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}');
    expect(goQuantityRepr('-1Ki')).toBe('resource.Quantity{i:resource.int64Amount{value:-1024, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1Ki", Format:"BinarySI"}');
    expect(goQuantityRepr(-3)).toBe('resource.Quantity{i:resource.int64Amount{value:-3, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-3", Format:"DecimalSI"}');
  });
});
