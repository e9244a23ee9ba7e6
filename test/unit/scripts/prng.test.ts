import { describe, expect, it } from '@jest/globals';
import { mulberry32, uniformFloat32 } from '../../../scripts/prng.js';

function draw(seed: number, count: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => random());
}

describe('mulberry32', () => {
  it('gives the same sequence for the same seed', () => {
    expect(draw(7, 100)).toEqual(draw(7, 100));
  });

  it('gives a different sequence for a different seed', () => {
    expect(draw(7, 10)).not.toEqual(draw(8, 10));
  });

  it('stays in [0, 1)', () => {
    for (const value of draw(123, 10_000)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

describe('uniformFloat32', () => {
  it('stays within ±limit', () => {
    const values = uniformFloat32(mulberry32(1), 10_000, 0.5);
    expect(Math.max(...values)).toBeLessThanOrEqual(0.5);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(-0.5);
  });

  it('uses both signs', () => {
    const values = uniformFloat32(mulberry32(1), 100, 1);
    expect(values.some((value) => value < 0) && values.some((value) => value > 0)).toBe(true);
  });
});
