import { describe, expect, it } from 'vitest';
import { createWatermark } from './watermark.js';

describe('the in-flight watermark', () => {
  it('reads the most in use within the last second, forgetting older peaks', () => {
    let now = 0;
    const mark = createWatermark(() => now);
    mark.observe(3);
    mark.observe(9);
    now = 500;
    expect(mark.read(2)).toBe(9);
    now = 1200; // a new window: the previous one's peak still counts
    mark.observe(4);
    expect(mark.read(1)).toBe(9);
    now = 2300; // two windows on: only the last one's peak
    expect(mark.read(1)).toBe(4);
    now = 5000; // idle for long: what is in use now
    expect(mark.read(2)).toBe(2);
  });
});
