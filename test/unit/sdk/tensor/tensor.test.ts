import { describe, expect, it } from '@jest/globals';
import { elementCount } from '../../../../src/sdk/tensor/index.js';

describe('elementCount', () => {
  it('multiplies the dimensions, 1 for a scalar', () => {
    expect(elementCount([2, 3, 4])).toBe(24);
    expect(elementCount([])).toBe(1);
  });

  it('counts 0 for a zero dimension after dimensions whose product overflows', () => {
    expect(elementCount([...Array<number>(21).fill(Number.MAX_SAFE_INTEGER), 0])).toBe(0);
  });
});
