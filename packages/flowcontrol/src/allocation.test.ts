import { describe, expect, it } from 'vitest';
import { allocateConcurrency } from './allocation.js';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('concurrency allocation (kube computeConcurrencyAllocation)', () => {
  it('shares in proportion to the targets when no bound is met', () => {
    const allocs = allocateConcurrency(100, [
      { target: 10, lowerBound: 0, upperBound: 1000 },
      { target: 30, lowerBound: 0, upperBound: 1000 },
    ]);
    expect(allocs[0]).toBeCloseTo(25);
    expect(allocs[1]).toBeCloseTo(75);
  });

  it('holds each level within its bounds and still sums to the total', () => {
    const items = [
      { target: 100, lowerBound: 5, upperBound: 40 },
      { target: 1, lowerBound: 20, upperBound: 100 },
      { target: 50, lowerBound: 0, upperBound: 1000 },
    ];
    const allocs = allocateConcurrency(120, items);
    expect(sum(allocs)).toBeCloseTo(120);
    expect(allocs[0]).toBeCloseTo(40);
    expect(allocs[1]).toBeCloseTo(20);
    expect(allocs[2]).toBeCloseTo(60);
    items.forEach((item, i) => {
      expect(allocs[i]).toBeGreaterThanOrEqual(item.lowerBound - 1e-9);
      expect(allocs[i]).toBeLessThanOrEqual(item.upperBound + 1e-9);
    });
  });

  it('gives the lower bounds when they already take everything, the upper bounds when they cannot reach it', () => {
    expect(allocateConcurrency(10, [{ target: 5, lowerBound: 8, upperBound: 9 }, { target: 5, lowerBound: 7, upperBound: 9 }])).toEqual([8, 7]);
    expect(allocateConcurrency(100, [{ target: 5, lowerBound: 1, upperBound: 9 }, { target: 5, lowerBound: 1, upperBound: 9 }])).toEqual([9, 9]);
  });

  it('lends an idle level\'s seats to a busy one (targets near zero count as 0.001)', () => {
    const allocs = allocateConcurrency(600, [
      { target: 500, lowerBound: 49, upperBound: 649 },
      { target: 0, lowerBound: 25, upperBound: 845 },
      { target: 0, lowerBound: 26, upperBound: 196 },
    ]);
    expect(sum(allocs)).toBeCloseTo(600);
    expect(allocs[0]).toBeGreaterThan(540);
    expect(allocs[1]).toBeCloseTo(25);
  });
});
