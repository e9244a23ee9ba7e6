import { describe, expect, it } from '@jest/globals';
import { expandBox } from '../../../../plugins/ocr/regions/expand-box.js';

describe('expandBox', () => {
  it('grows every side by area × ratio / perimeter', () => {
    // 30 × 10: area 300, perimeter 80, offset 300 × 2 / 80 = 7.5
    expect(expandBox([10, 20, 40, 30], 2)).toEqual([2.5, 12.5, 47.5, 37.5]);
  });

  it('leaves a box as it is with ratio 0', () => {
    expect(expandBox([1, 2, 3, 4], 0)).toEqual([1, 2, 3, 4]);
  });
});
