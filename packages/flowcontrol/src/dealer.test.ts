import { describe, expect, it } from 'vitest';
import { Dealer, flowHash } from './dealer.js';

describe('shuffle sharding', () => {
  it('deals distinct queues in range, the same hand for the same flow', () => {
    const dealer = new Dealer(128, 6);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const hand = dealer.deal(flowHash('global-default', `user-${i}`));
      expect(hand).toHaveLength(6);
      expect(new Set(hand).size).toBe(6);
      for (const card of hand) {
        expect(card).toBeGreaterThanOrEqual(0);
        expect(card).toBeLessThan(128);
        seen.add(card);
      }
    }
    expect(seen.size).toBe(128);
    expect(dealer.deal(flowHash('fs', 'alice'))).toEqual(dealer.deal(flowHash('fs', 'alice')));
  });

  it('hashes a flow the same each time, remembered or not (values of the FNV-1a pair as first written)', () => {
    const expected = { alice: 3596480985926755, u0: 4551804154322588 };
    expect(flowHash('global-default', 'system:anonymous')).toBe(6388612209766475);
    for (let round = 0; round < 2; round++) {
      expect(flowHash('fs', 'alice')).toBe(expected.alice);
      // More distinguishers than are remembered, then the first ones again.
      for (let i = 0; i < 5000; i++) flowHash('fs', `other-${i}`);
      expect(flowHash('fs', 'u0')).toBe(expected.u0);
    }
    for (let i = 0; i < 1100; i++) flowHash(`schema-${i}`, 'alice');
    expect(flowHash('fs', 'alice')).toBe(expected.alice);
  });

  it('gives different flows different hands', () => {
    const dealer = new Dealer(64, 8);
    const hands = new Set<string>();
    for (let i = 0; i < 500; i++) hands.add(dealer.deal(flowHash('fs', `u${i}`)).join(','));
    expect(hands.size).toBeGreaterThan(495);
  });

  it('refuses a hand larger than the deck', () => {
    expect(() => new Dealer(4, 5)).toThrow(RangeError);
  });
});
